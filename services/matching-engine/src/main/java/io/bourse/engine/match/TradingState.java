package io.bourse.engine.match;

/**
 * Trading state of one symbol, set by {@link MatchingEngine#tradingState(long, TradingState)}. Outside
 * {@link #OPEN} the book is frozen: new orders, replaces and moves are rejected (OUCH 4.2 Rejected reasons 'C' and
 * 'H'), cancels still work, and resting orders stay on the book until they are canceled or trading resumes.
 */
public enum TradingState
{
    /** Not trading: the exchange is closed for the symbol; entries are rejected with OUCH 4.2 reason 'C'. */
    CLOSED(ReasonCodes.REJECT_CLOSED),
    /** Trading normally; the state of every symbol when the engine is built. */
    OPEN((byte)0),
    /** Trading halted: entries are rejected with OUCH 4.2 reason 'H'. */
    HALTED(ReasonCodes.REJECT_HALTED);

    private final byte rejectReason;

    TradingState(final byte rejectReason)
    {
        this.rejectReason = rejectReason;
    }

    /** @return the OUCH 4.2 reject reason for an entry in this state, 0 when entries are accepted. */
    byte rejectReason()
    {
        return rejectReason;
    }
}
