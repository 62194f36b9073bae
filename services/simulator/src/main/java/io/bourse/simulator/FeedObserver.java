package io.bourse.simulator;

/** Sees every ITCH 5.0 message a market-data session decodes, before it is applied; on the market-data thread. */
@FunctionalInterface
interface FeedObserver
{
    /** Observes nothing: for a session that only builds a book. */
    FeedObserver NONE = (messageType, timestampNs) ->
    {
    };

    /**
     * @param messageType ITCH 5.0 Message Type (ASCII).
     * @param timestampNs the message's Timestamp, ns since midnight.
     */
    void onMessage(byte messageType, long timestampNs);
}
