package io.bourse.gateway;

/**
 * Kinds of error the gateway counts in {@code bourse_gateway_errors_total{kind}}, the label being the kind's name in
 * lower case ({@link io.bourse.common.metrics.ErrorKinds}); each kind is logged the first time it happens only, so
 * that a misbehaving client cannot flood the log.
 */
enum GatewayError
{
    /** An OUCH message type the gateway does not accept; the connection is closed, the session goes on. */
    UNKNOWN_MESSAGE_TYPE,
    /** An OUCH message whose length does not match its type; the connection is closed, the session goes on. */
    WRONG_LENGTH,
    /**
     * Unsequenced Data or a second Login Request on a connection not (or already) logged in; the connection is closed,
     * the session goes on.
     */
    PROTOCOL_VIOLATION,
    /** A SoupBinTCP framing error or a malformed Login Request; the connection is closed, the session goes on. */
    MALFORMED_PACKET,
    /** A socket error; the connection is closed. */
    CONNECTION_FAILED,
    /**
     * A client whose send buffer could not take a packet (also counted in {@code
     * bourse_gateway_slow_consumer_disconnects_total}); the connection is closed, the session goes on.
     */
    SLOW_CONSUMER,
    /**
     * A connection that sent no Login Request within the login timeout (also counted in {@code
     * bourse_gateway_login_timeouts_total}); it is closed.
     */
    LOGIN_TIMEOUT,
    /**
     * A login while as many users as allowed are logged in, or of a session that needs a session index when none is
     * left for the day (Login Rejected 'S').
     */
    SESSION_LIMIT,
    /**
     * A connection accepted while as many as allowed await their login ({@code BOURSE_GATEWAY_MAX_PENDING_LOGINS}): it
     * is closed at once, before any packet.
     */
    PENDING_LOGIN_LIMIT,
    /**
     * An Enter or Replace Order with a new Order Token beyond the day's token capacity of its session or of the gateway
     * (also counted in {@code bourse_gateway_rejects_total}); it is Rejected, the session goes on.
     */
    TOKEN_CAPACITY,
    /**
     * An OUCH message read after the session's System Event End of Day, the day's last message (the close found no
     * order open and ended the day in the duty cycle that read it): dropped, unanswered; the session ends.
     */
    AFTER_END_OF_DAY,
    /**
     * An OUCH message for a session whose journal holds its System Event End of Day (OUCH 4.2: no further messages
     * follow it): the answer to an order the close left open when its drain time ended the day (an engine shard down
     * at the close), given by the shard once back (Accepted, Canceled, Executed, ...) or by the gateway (Rejected 'H'
     * for an order lost with its engine run or its media driver). Neither journaled nor sent; the order's state moves
     * on as the answer says.
     */
    ANSWER_AFTER_END_OF_DAY,
    /**
     * An engine event of another schema, an unknown template, or shorter than its header, its block or the fields of
     * its version; skipped.
     */
    UNKNOWN_EVENT,
    /**
     * The event archive could not give the events of an engine stream before the position the gateway joined it at
     * (archive unreachable, no recording of the stream, or a replay that stopped short): those events are missed, as
     * without an archive, and the gateway goes on with the live stream.
     */
    EVENT_REPLAY_FAILED,
    /**
     * A Login Request while the engine shards' event streams are not yet caught up from the event archive (Login
     * Rejected 'S'): until then the gateway does not know every session index its gateway id used today.
     */
    EVENTS_NOT_CAUGHT_UP,
    /**
     * An engine event for a clientOrderId of this gateway id whose session index is past every index known: an order of
     * an earlier gateway with this id whose journals are gone, or of another gateway running with the same id. The
     * event is unmatched; new sessions take indexes past it ({@link SessionIndexes}).
     */
    UNKNOWN_SESSION_INDEX,
    /**
     * A session journal that cannot be written or forced (the session then takes no more messages, its client is
     * disconnected and its logins refused) or read for a replay (the client is disconnected).
     */
    JOURNAL_FAILED
}
