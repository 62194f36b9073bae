package io.bourse.simulator;

/**
 * The simulator's own counters, each with the label it carries in reports and in the {@code type} label of
 * {@code bourse_simulator_messages_in_total}. Written by one agent thread, read by the progress thread and by
 * Prometheus scrapes through {@link SimulatorCounters}.
 */
public enum SimulatorCounter
{
    /** OUCH 4.2 Enter Order with a day time in force, sent. */
    DAY_SENT("day"),
    /** OUCH 4.2 Enter Order with time in force 0 (immediate or cancel), sent. */
    IOC_SENT("ioc"),
    /** OUCH 4.2 Cancel Order, sent. */
    CANCEL_SENT("cancel"),
    /** OUCH 4.2 Replace Order, sent. */
    REPLACE_SENT("replace"),
    /** Orders of the schedule left out, their time come while no OUCH session was logged in. */
    NOT_SENT("not_sent"),
    /** OUCH 4.2 Accepted received. */
    ACCEPTED("accepted"),
    /** OUCH 4.2 Rejected received; by reason in {@link SimulatorCounters#rejectsByReason()}. */
    REJECTED("rejected"),
    /** OUCH 4.2 Executed received. */
    EXECUTED("executed"),
    /** Shares of the OUCH 4.2 Executed messages received. */
    EXECUTED_SHARES("executed_shares"),
    /** OUCH 4.2 Canceled or AIQ Canceled received (whole or partial). */
    CANCELED("canceled"),
    /** OUCH 4.2 Replaced received. */
    REPLACED("replaced"),
    /** OUCH 4.2 System Event received. */
    SYSTEM_EVENT("system_event"),
    /** Any other OUCH 4.2 outbound message received. */
    OTHER_IN("other"),
    /**
     * Enter Orders that got no Accepted or Rejected: still in flight at the end or when their trading day closed, or
     * overwritten in the ring.
     */
    UNANSWERED("unanswered"),
    /** ITCH 5.0 messages received by all market-data sessions; by type in SimulatorCounters#mdMessagesByType. */
    MD_MESSAGES("md_messages"),
    /** ITCH 5.0 messages that did not fit a market-data session's book: unknown order, duplicate, excess shares. */
    MD_INCONSISTENCIES("md_inconsistencies"),
    /** ITCH 5.0 Broken Trades whose trade was taken out of the volume and VWAPs. */
    MD_BROKEN_TRADES("md_broken_trades"),
    /** ITCH 5.0 Broken Trades of a trade no longer kept (older than the recent trades) or never heard: not applied. */
    MD_BREAKS_NOT_APPLIED("md_breaks_not_applied"),
    /** ITCH 5.0 trades and Broken Trades heard again (a MoldUDP64 session read again), counted once. */
    MD_DUPLICATE_TRADES("md_duplicate_trades"),
    /** Symbols whose book built from the feed differed from the fanout's snapshot at the book check. */
    MD_BOOK_MISMATCHES("md_book_mismatches"),
    /** MoldUDP64 gaps detected: a market-data session entered backfill (late join) or gap fill. */
    MD_GAPS("md_gaps"),
    /** MoldUDP64 Request Packets sent to fill gaps (a gap may take several). */
    MD_GAP_REQUESTS("md_gap_requests"),
    /** ITCH 5.0 messages recovered from the responses to MoldUDP64 Request Packets. */
    MD_GAP_MESSAGES("md_gap_messages"),
    /**
     * Times the first market-data session, whose trades the analytics count, logged in (SoupBinTCP) or joined
     * (MoldUDP64) again after a loss or the end of its session (a MoldUDP64 day switch). Over SoupBinTCP it starts
     * from a fresh snapshot: the trades between the loss and it never reach the figures.
     */
    MD_RELOGINS("md_relogins");

    private final String label;

    SimulatorCounter(final String label)
    {
        this.label = label;
    }

    /** @return the label in reports and metrics. */
    public String label()
    {
        return label;
    }
}
