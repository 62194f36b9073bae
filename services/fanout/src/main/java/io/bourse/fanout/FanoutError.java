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
     * A market-data message the dispatcher cannot translate into ITCH 5.0 (a template or a value the md-publisher does
     * not send, or too short): skipped, no subscriber gets it.
     */
    UNTRANSLATABLE_MESSAGE,
    /**
     * An increment of a second md-publisher, while the dispatcher follows another one's stream: ignored (the books
     * stay those of the stream followed).
     */
    OTHER_PUBLISHER,
    /**
     * A snapshot or replay that could not catch up before the messages it still had to send left the replay history:
     * the session is ended with End of Session.
     */
    CATCH_UP_FAILED,
    /**
     * A subscription message (SoupBinTCP Unsequenced Data) before the Login Request, or that cannot be parsed: ignored,
     * the session keeps the symbols it had.
     */
    BAD_SUBSCRIPTION,
    /**
     * A packet that breaks SoupBinTCP (an unknown type, a length past 1 KiB, a second Login Request) or cannot be
     * parsed (also counted in {@code bourse_fanout_malformed_packets_total}): the session is ended with End of Session.
     */
    MALFORMED_PACKET,
    /**
     * A subscriber further behind than its send buffer (also counted in {@code
     * bourse_fanout_slow_consumer_disconnects_total}): the session is ended with End of Session.
     */
    SLOW_CONSUMER,
    /** A socket error or a subscriber silent past the heartbeat timeout: the connection is closed. */
    CONNECTION_FAILED,
    /**
     * A connection the fanout could not take (not made non-blocking, not registered with its worker's selector, or its
     * worker full of sessions): closed.
     */
    CONNECTION_REFUSED,
    /** A worker's selector that failed or could not be closed at the stop: the sessions left are closed. */
    SELECTOR_FAILED,
    /** A record in a worker's ring of a type the dispatcher does not write (a defect): skipped. */
    UNKNOWN_RECORD
}
