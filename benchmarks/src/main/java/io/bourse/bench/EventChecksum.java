package io.bourse.bench;

import io.bourse.engine.match.BookUpdate;
import io.bourse.engine.match.Display;
import io.bourse.engine.match.MatchingEngineListener;
import io.bourse.engine.match.Side;

/**
 * An order-sensitive 64-bit checksum of a matching core's events, so that two runs can be shown to have made the same
 * events with the same content, not just as many: the reference core, the core alone and the engine service's SBE
 * events decoded back into these callbacks ({@link EventCounter}) all feed one.
 *
 * <p>Every field of every event goes in (event type, client order ids, order ids, symbol, side, quantities, prices,
 * time in force, display, reasons, match numbers, leaves, wasResting, bookUpdate); the engine service's sequence
 * numbers and timestamps do not, as the core has neither. Per event the fields are summed, each weighted by its own
 * odd constant, and the events chained as {@code checksum = checksum * M + eventSum} (M odd): any single altered field
 * changes the checksum (a change d in a field weighted k changes it by d * k * M^n, an odd multiple of d, never 0
 * modulo 2^64), as does a reordering of unequal events in all but contrived cases. The per-event sum keeps the
 * multiplications independent of each other, so that the work per event is a handful of cycles. Allocates nothing.
 *
 * <p>A null enum (what {@link EventCounter} passes for a value it cannot decode) weighs 0, unlike any real value.
 */
final class EventChecksum implements MatchingEngineListener
{
    private static final long CHAIN = 0x9E37_79B9_7F4A_7C15L;
    private static final long W1 = 0xBF58_476D_1CE4_E5B9L;
    private static final long W2 = 0x94D0_49BB_1331_11EBL;
    private static final long W3 = 0xD6E8_FEB8_6659_FD93L;
    private static final long W4 = 0xA076_1D64_78BD_642FL;
    private static final long W5 = 0xE703_7ED1_A0B4_28DBL;
    private static final long W6 = 0x8EBC_6AF0_9C88_C6E3L;
    private static final long W7 = 0x5899_65CC_7537_4CC3L;
    private static final long W8 = 0x1D8E_4E27_C47D_124FL;
    private static final long W9 = 0xFF51_AFD7_ED55_8CCDL;
    private static final long W10 = 0xC4CE_B9FE_1A85_EC53L;
    private static final long W11 = 0x2127_599B_F432_5C37L;

    /** Event types, added unweighted, so that two kinds of event with equal fields differ. */
    private static final long ACCEPTED = 1;
    private static final long REJECTED = 2;
    private static final long ADDED = 3;
    private static final long EXECUTED = 4;
    private static final long CANCELED = 5;
    private static final long REPLACED = 6;

    private long checksum;

    /** @return the checksum of the events so far; 0 before the first. */
    long checksum()
    {
        return checksum;
    }

    /** Starts over, as before the first event. */
    void reset()
    {
        checksum = 0;
    }

    @Override
    public void onOrderAccepted(
        final long clientOrderId, final long orderId, final long symbol, final Side side, final long quantity,
        final long price, final int timeInForce, final Display display)
    {
        chain(ACCEPTED + clientOrderId * W1 + orderId * W2 + symbol * W3 + code(side) * W4 + quantity * W5 +
            price * W6 + timeInForce * W7 + code(display) * W8);
    }

    @Override
    public void onOrderRejected(final long clientOrderId, final long symbol, final byte reason)
    {
        chain(REJECTED + clientOrderId * W1 + symbol * W3 + reason * W9);
    }

    @Override
    public void onOrderAdded(
        final long orderId, final long symbol, final Side side, final long quantity, final long price,
        final Display display, final int firm)
    {
        chain(ADDED + orderId * W2 + symbol * W3 + code(side) * W4 + quantity * W5 + price * W6 +
            code(display) * W8 + firm * W10);
    }

    @Override
    public void onOrderExecuted(
        final long matchNumber, final long symbol, final long quantity, final long price,
        final long takerClientOrderId, final long takerOrderId, final Side takerSide,
        final long makerClientOrderId, final long makerOrderId, final long makerLeaves, final long takerLeaves)
    {
        chain(EXECUTED + matchNumber * W7 + symbol * W3 + quantity * W5 + price * W6 + takerClientOrderId * W1 +
            takerOrderId * W2 + code(takerSide) * W4 + makerClientOrderId * W9 + makerOrderId * W10 +
            makerLeaves * W11 + takerLeaves * W8);
    }

    @Override
    public void onOrderCanceled(
        final long clientOrderId, final long orderId, final long symbol, final long canceledQuantity,
        final long leaves, final byte reason, final boolean wasResting)
    {
        chain(CANCELED + clientOrderId * W1 + orderId * W2 + symbol * W3 + canceledQuantity * W5 + leaves * W11 +
            reason * W9 + (wasResting ? W10 : 0));
    }

    @Override
    public void onOrderReplaced(
        final long clientOrderId, final long newClientOrderId, final long orderId, final long newOrderId,
        final long symbol, final Side side, final long quantity, final long price, final BookUpdate bookUpdate,
        final Display display)
    {
        chain(REPLACED + clientOrderId * W1 + newClientOrderId * W9 + orderId * W2 + newOrderId * W10 +
            symbol * W3 + code(side) * W4 + quantity * W5 + price * W6 + code(bookUpdate) * W11 + code(display) * W8);
    }

    private void chain(final long eventSum)
    {
        checksum = checksum * CHAIN + eventSum;
    }

    private static long code(final Side side)
    {
        return null == side ? 0 : side.ordinal() + 1;
    }

    private static long code(final Display display)
    {
        return null == display ? 0 : display.code();
    }

    private static long code(final BookUpdate bookUpdate)
    {
        return null == bookUpdate ? 0 : bookUpdate.ordinal() + 1;
    }
}
