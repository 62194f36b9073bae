package io.bourse.it;

import com.paritytrading.nassau.MessageListener;
import io.bourse.ouch.OrderAccepted;
import io.bourse.ouch.OrderCanceled;
import io.bourse.ouch.OrderExecuted;
import io.bourse.ouch.OrderRejected;
import io.bourse.ouch.OrderReplaced;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes the OUCH 4.2 outbound messages of one order-entry session (OUCH 4.2 §4 Accepted, Replaced, Canceled,
 * Executed, Rejected) into records, in arrival order, and keeps every message's bytes as received, those of the other
 * types too. Every message must have exactly its OUCH 4.2 length (System Event 10, Accepted 66, Replaced 80, Canceled
 * 28, AIQ Canceled 37, Executed 40, Broken Trade 32, Rejected 24, Cancel Pending 23, Cancel Reject 23, Order Priority
 * Update 36, Order Modified 28) and a known type, otherwise {@link #message} throws and the session's receive fails
 * the test.
 */
final class OuchRecorder implements MessageListener
{
    /** OUCH 4.2 Accepted: price in 1/10000 $, shares, the day-unique order reference number. */
    record Accepted(String token, byte side, long shares, long stock, long price, long orderReference)
    {
    }

    /**
     * OUCH 4.2 Replaced: the replacement order's token, total shares outstanding, price in 1/10000 $, its new order
     * reference number and whether it is live ('L') or dead ('D'), and the token it replaced.
     */
    record Replaced(String token, long shares, long price, long orderReference, byte orderState, String previousToken)
    {
    }

    /** OUCH 4.2 Canceled: shares canceled and reason code. */
    record Canceled(String token, long decrementShares, byte reason)
    {
    }

    /** OUCH 4.2 Executed: executed shares, price in 1/10000 $, liquidity flag and match number. */
    record Executed(String token, long shares, long price, byte liquidityFlag, long matchNumber)
    {
    }

    /** OUCH 4.2 Rejected: token and reason code. */
    record Rejected(String token, byte reason)
    {
    }

    private final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
    private final OrderAccepted orderAccepted = new OrderAccepted();
    private final OrderCanceled orderCanceled = new OrderCanceled();
    private final OrderExecuted orderExecuted = new OrderExecuted();
    private final OrderRejected orderRejected = new OrderRejected();
    private final OrderReplaced orderReplaced = new OrderReplaced();
    private final List<byte[]> messages = new ArrayList<>();
    private final List<Accepted> accepted = new ArrayList<>();
    private final List<Canceled> canceled = new ArrayList<>();
    private final List<Executed> executed = new ArrayList<>();
    private final List<Rejected> rejected = new ArrayList<>();
    private final List<Replaced> replaced = new ArrayList<>();
    private final List<Record> answers = new ArrayList<>();

    @Override
    public void message(final ByteBuffer message)
    {
        final byte[] bytes = new byte[message.remaining()];
        message.get(bytes);
        buffer.wrap(bytes);
        // The spec's lengths, not Bourse's constants, so that a wrong constant cannot pass here.
        final int expectedLength = switch (bytes[0])
        {
            case 'S' -> 10; // System Event
            case 'A' -> 66; // Accepted
            case 'U' -> 80; // Replaced
            case 'C' -> 28; // Canceled
            case 'D' -> 37; // AIQ Canceled
            case 'E' -> 40; // Executed
            case 'B' -> 32; // Broken Trade
            case 'J' -> 24; // Rejected
            case 'P', 'I' -> 23; // Cancel Pending, Cancel Reject
            case 'T' -> 36; // Order Priority Update
            case 'M' -> 28; // Order Modified
            default -> throw new IllegalStateException("unknown OUCH 4.2 outbound type '" + (char)bytes[0] + "'");
        };
        if (bytes.length != expectedLength)
        {
            throw new IllegalStateException("OUCH 4.2 '" + (char)bytes[0] + "' is " + bytes.length +
                " bytes, the spec says " + expectedLength);
        }
        messages.add(bytes);
        switch (bytes[0])
        {
            case OrderAccepted.TYPE ->
            {
                orderAccepted.wrap(buffer, 0);
                accepted.add(answer(new Accepted(orderAccepted.orderTokenAsString(),
                    orderAccepted.buySellIndicator(), orderAccepted.shares(), orderAccepted.stock(),
                    orderAccepted.price(), orderAccepted.orderReferenceNumber())));
            }
            case OrderCanceled.TYPE ->
            {
                orderCanceled.wrap(buffer, 0);
                canceled.add(answer(new Canceled(orderCanceled.orderTokenAsString(),
                    orderCanceled.decrementShares(), orderCanceled.reason())));
            }
            case OrderExecuted.TYPE ->
            {
                orderExecuted.wrap(buffer, 0);
                executed.add(answer(new Executed(orderExecuted.orderTokenAsString(),
                    orderExecuted.executedShares(), orderExecuted.executionPrice(), orderExecuted.liquidityFlag(),
                    orderExecuted.matchNumber())));
            }
            case OrderRejected.TYPE ->
            {
                orderRejected.wrap(buffer, 0);
                rejected.add(answer(new Rejected(orderRejected.orderTokenAsString(), orderRejected.reason())));
            }
            case OrderReplaced.TYPE ->
            {
                orderReplaced.wrap(buffer, 0);
                replaced.add(answer(new Replaced(orderReplaced.replacementOrderTokenAsString(),
                    orderReplaced.shares(), orderReplaced.price(), orderReplaced.orderReferenceNumber(),
                    orderReplaced.orderState(), orderReplaced.previousOrderTokenAsString())));
            }
            default ->
            {
                // kept in messages() only: no test needs their fields
            }
        }
    }

    private <R extends Record> R answer(final R answer)
    {
        answers.add(answer);
        return answer;
    }

    /** @return the Accepted, Replaced, Canceled, Executed and Rejected messages together, in arrival order. */
    List<Record> answers()
    {
        return answers;
    }

    /** @return every message (Sequenced Data payload) as received, in arrival order. */
    List<byte[]> messages()
    {
        return messages;
    }

    /** @return Accepted messages in arrival order. */
    List<Accepted> accepted()
    {
        return accepted;
    }

    /** @return Canceled messages in arrival order. */
    List<Canceled> canceled()
    {
        return canceled;
    }

    /** @return Executed messages in arrival order. */
    List<Executed> executed()
    {
        return executed;
    }

    /** @return Replaced messages in arrival order. */
    List<Replaced> replaced()
    {
        return replaced;
    }

    /** @return Rejected messages in arrival order. */
    List<Rejected> rejected()
    {
        return rejected;
    }
}
