package io.bourse.gateway;

/**
 * Kinds of error the gateway counts in {@code bourse_gateway_errors_total}; each kind is logged the first time it
 * happens only, so that a misbehaving client cannot flood the log.
 */
enum GatewayError
{
    /** An OUCH message type the gateway does not accept; the session is ended. */
    UNKNOWN_MESSAGE_TYPE,
    /** An OUCH message whose length does not match its type; the session is ended. */
    WRONG_LENGTH,
    /** Unsequenced Data or a second Login Request on a connection not (or already) logged in; the session is ended. */
    PROTOCOL_VIOLATION,
    /** A SoupBinTCP framing error or a malformed Login Request; the session is ended. */
    MALFORMED_PACKET,
    /** A socket error, or a client that stopped reading; the connection is closed. */
    CONNECTION_FAILED,
    /** More connections than the configured maximum; the new one is closed. */
    SESSION_LIMIT,
    /** An engine event of another schema or an unknown template; skipped. */
    UNKNOWN_EVENT,
    /**
     * A session journal that cannot be written or forced (the session then takes no more messages, its client is
     * disconnected and its logins refused) or read for a replay (the client is disconnected).
     */
    JOURNAL_FAILED
}
