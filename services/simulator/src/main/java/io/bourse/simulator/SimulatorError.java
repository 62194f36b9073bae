package io.bourse.simulator;

/**
 * Kinds of error the simulator counts in {@code bourse_simulator_errors_total{kind}}, the label being the kind's name
 * in lower case ({@link io.bourse.common.metrics.ErrorKinds}); each kind is logged the first time it happens only,
 * except the lost sessions, logged every time. Each one is a sign that the exchange, or the path to it, misbehaved: the
 * simulator skips what it concerns and goes on.
 */
public enum SimulatorError
{
    /**
     * An OUCH session lost before the gateway's End of Day (a socket error, no heartbeat, ended by the gateway): logged
     * every time, logged in again.
     */
    ORDER_SESSION_LOST,
    /** An OUCH 4.2 message from the gateway that is empty or of another length than its type's: skipped. */
    MALFORMED_OUCH,
    /** An OUCH 4.2 message whose Order Token is not one the simulator sent: skipped. */
    UNKNOWN_ORDER_TOKEN,
    /** An OUCH 4.2 Accepted or Replaced of a symbol the simulator does not trade: not tracked as an open order. */
    UNKNOWN_SYMBOL,
    /**
     * A market-data session lost (a socket error, or ended by the server before its System Event End of Messages):
     * logged every time, logged in or joined again.
     */
    MD_SESSION_LOST,
    /** An ITCH 5.0 message that cannot be parsed: skipped. */
    MALFORMED_ITCH,
    /** A MoldUDP64 packet that cannot be parsed: skipped. */
    MALFORMED_MOLD,
    /**
     * An ITCH 5.0 Stock Directory that names another symbol at its Stock Locate than the configured symbols do, or a
     * locate they lack: the market-data feed is of an exchange that trades other symbols.
     */
    STOCK_DIRECTORY_MISMATCH,
    /** The book check's snapshot session could not be opened or read: the books are not checked. */
    BOOK_CHECK_FAILED
}
