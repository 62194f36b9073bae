package io.bourse.fanout;

/**
 * Kinds of error the fanout counts in {@code bourse_fanout_errors_total{kind}}, the label being the kind's name in
 * lower case ({@link io.bourse.common.metrics.ErrorKinds}); each kind is logged the first time it happens only, so
 * that a misbehaving subscriber cannot flood the log. What an error concerns is skipped or ended; the other sessions
 * go on.
 */
enum FanoutError
{
    /**
     * A market-data message the dispatcher cannot translate into ITCH 5.0 (of another schema, too short, of a symbol
     * the symbol directory does not have, or with a value the md-publisher does not send): skipped, no subscriber gets
     * it.
     */
    UNTRANSLATABLE_MESSAGE,
    /**
     * An increment of an older md-publisher's stream than the one the dispatcher follows: ignored (the books stay
     * those of the stream followed). A newer one's increment starts recovery from its snapshot instead
     * ({@link MarketDataRecovery}).
     */
    OTHER_PUBLISHER,
    /**
     * A snapshot or replay that could not catch up before the messages it still had to send left the replay history:
     * the connection ends ({@link SubscriberSession#endConnection}: End of Session on a snapshot session only).
     */
    CATCH_UP_FAILED,
    /**
     * A subscription message (SoupBinTCP Unsequenced Data) before the Login Request, or that cannot be parsed: ignored,
     * the session keeps the symbols it had.
     */
    BAD_SUBSCRIPTION,
    /**
     * A subscription message that leaves symbols out, on a session of the day's numbered stream (a replay, or a login
     * naming that stream), whose sequence numbers name every symbol's messages: ignored, the session keeps every
     * symbol. Symbols are chosen on a snapshot session.
     */
    SUBSCRIPTION_REFUSED,
    /**
     * A packet that breaks SoupBinTCP (an unknown type, longer than the longest Login Request or subscription message,
     * a second Login Request, a Requested Sequence Number that is not a number) or cannot be parsed (also counted in
     * {@code bourse_fanout_malformed_packets_total}): the connection ends (End of Session on a snapshot session only).
     */
    MALFORMED_PACKET,
    /**
     * A subscriber further behind than its send buffer, or whose socket took none of its awaited answer for 15 s (also
     * counted in {@code bourse_fanout_slow_consumer_disconnects_total}): the connection ends after the packet under
     * way (End of Session on a snapshot session only).
     */
    SLOW_CONSUMER,
    /**
     * A socket error (also one closing it) or a subscriber silent past the heartbeat timeout: the connection is closed.
     */
    CONNECTION_FAILED,
    /**
     * A Login Request or subscription whose snapshot or replay request the dispatcher's queue could not take (the
     * fanout is overloaded): the login gets Login Rejected 'S' (session not available), the subscription's connection
     * ends (a snapshot session's, so with End of Session).
     */
    REQUEST_QUEUE_FULL,
    /**
     * A connection the fanout could not take (not made non-blocking, not registered with its worker's selector, or its
     * worker full of sessions): closed.
     */
    CONNECTION_REFUSED,
    /**
     * A worker's selector that failed or could not be closed at the stop: the sessions left are closed. One that fails
     * while the worker runs escapes its duty cycle and is counted as {@code agent_exception}.
     */
    SELECTOR_FAILED,
    /** A record in a worker's ring of a type the dispatcher does not write (a defect): skipped. */
    UNKNOWN_RECORD
}
