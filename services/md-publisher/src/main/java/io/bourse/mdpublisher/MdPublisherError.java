package io.bourse.mdpublisher;

/**
 * Kinds of error the md-publisher counts in {@code bourse_md_errors_total{kind}}, the label being the kind's name in
 * lower case ({@link io.bourse.common.metrics.ErrorKinds}); each kind is logged the first time it happens only. The
 * market data goes on: what an error concerns is skipped, the rest published.
 */
public enum MdPublisherError
{
    /** An engine event of another schema, or shorter than its message header, its block or its version's fields. */
    UNREADABLE_EVENT,
    /**
     * An engine event of a template the md-publisher does not know, or with a value no engine sends (a side, book
     * update, display, cross type or trading state), or a RunStarted of a shard the symbol directory does not have.
     */
    INVALID_EVENT,
    /** An engine event of a symbol the symbol directory does not have. */
    UNKNOWN_SYMBOL,
    /**
     * An engine event the books contradict: an order added twice or with no shares, an execution, cancel or replace of
     * an order they do not hold, or leaves other than the books' shares less those taken (the engine's leaves are
     * kept).
     */
    BOOK_MISMATCH,
    /** The event archive could not replay the events before an engine stream's join position: the books hold less. */
    EVENT_REPLAY_FAILED,
    /** A snapshot request of another schema or template, too short, or naming a feed the md-publisher does not have. */
    BAD_SNAPSHOT_REQUEST,
    /**
     * A market-data message a feed's publication refused (closed, back pressure past the bound), other than "not
     * connected"; also counted in {@code bourse_md_drops_total}.
     */
    OFFER_FAILED
}
