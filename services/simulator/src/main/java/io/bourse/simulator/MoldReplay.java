package io.bourse.simulator;

import java.nio.ByteBuffer;

/**
 * What a MoldUDP64 market-data session hears again when it joins the group anew (after a socket failure or a gap it
 * could not fill) and the md-publisher's session is still the one it read before: a join reads the session from
 * Sequence Number 1, so its first messages are ones an earlier join delivered. Their trades and Broken Trades went into
 * the analytics then and are not passed on again, however many (the {@link RecentTrades} the analytics keep by Match
 * Number catch a trade heard again only while it is among the newest 65,536); the books, emptied for the new join,
 * take every message as always. Counted in {@link SimulatorCounter#MD_DUPLICATE_TRADES} for the session whose
 * analytics take trades.
 *
 * <p>nassau's MoldUDP64 client delivers the messages of a join in Sequence Number order from 1, so the n-th message
 * delivered is Sequence Number n. It does not tell the Session, so the md-publisher's session is known by its first
 * message: System Event 'O', stamped with the session's start to the nanosecond. A join whose first message differs
 * reads another session (the md-publisher's next run), and everything it delivers is new. Kept per market-data session
 * index across its joins; one thread.
 */
final class MoldReplay implements MarketDataListener
{
    /** Bytes of the first message compared: every System Event (12 bytes) fits. */
    private static final int FIRST_MESSAGE_BYTES = 64;

    private final MarketDataListener analytics;
    private final SimulatorCounters counters;
    private final boolean countsHeardAgain;
    private final byte[] firstMessage = new byte[FIRST_MESSAGE_BYTES];
    private int firstMessageLength = -1;
    /** Messages of the md-publisher's session delivered by this join and the earlier ones of the same session. */
    private long deliveredOfSession;
    /** Messages delivered by this join. */
    private long delivered;
    /** This join's messages up to this Sequence Number were delivered by an earlier join. */
    private long heardBefore;

    /**
     * @param analytics        receives the trades and Broken Trades not heard before, and every inconsistency.
     * @param counters         where the trades and Broken Trades heard again are counted.
     * @param countsHeardAgain false for a session whose analytics take no trades (only the first session's do), so
     *                         that what it hears again is not counted as corrections of figures it never made.
     */
    MoldReplay(final MarketDataListener analytics, final SimulatorCounters counters, final boolean countsHeardAgain)
    {
        this.analytics = analytics;
        this.counters = counters;
        this.countsHeardAgain = countsHeardAgain;
    }

    /** A new join starts: its first message tells whether it reads the same session as the joins before. */
    void joined()
    {
        delivered = 0;
        heardBefore = 0;
    }

    /**
     * The join delivers its next message, before the books and the analytics take it.
     *
     * @param message the ITCH 5.0 message from its position to its limit, which are left unchanged.
     */
    void onMessage(final ByteBuffer message)
    {
        delivered++;
        if (1 == delivered)
        {
            final int length = Math.min(FIRST_MESSAGE_BYTES, message.remaining());
            if (length == firstMessageLength &&
                0 == message.slice(message.position(), length).compareTo(ByteBuffer.wrap(firstMessage, 0, length)))
            {
                heardBefore = deliveredOfSession;
            }
            else
            {
                message.get(message.position(), firstMessage, 0, length);
                firstMessageLength = length;
                deliveredOfSession = 0;
            }
        }
        deliveredOfSession = Math.max(deliveredOfSession, delivered);
    }

    /** @return whether the message being delivered was delivered by an earlier join of the same session. */
    boolean isHeardBefore()
    {
        return delivered <= heardBefore;
    }

    @Override
    public void onTrade(
        final int locate, final long timestampNs, final long price, final long shares, final long matchNumber)
    {
        if (isHeardBefore())
        {
            countHeardAgain();
            return;
        }
        analytics.onTrade(locate, timestampNs, price, shares, matchNumber);
    }

    @Override
    public void onBrokenTrade(final long matchNumber)
    {
        if (isHeardBefore())
        {
            countHeardAgain();
            return;
        }
        analytics.onBrokenTrade(matchNumber);
    }

    private void countHeardAgain()
    {
        if (countsHeardAgain)
        {
            counters.increment(SimulatorCounter.MD_DUPLICATE_TRADES);
        }
    }

    @Override
    public void onInconsistency(final Inconsistency kind, final int locate, final long orderReferenceNumber)
    {
        analytics.onInconsistency(kind, locate, orderReferenceNumber);
    }
}
