package io.bourse.engine;

import io.bourse.sbe.engine.AdminResponseCode;

/**
 * Why the shard refused an admin command (engine-schema.xml SetTradingState, SetPriceBand, SetSelfTradePrevention,
 * BreakTrade, CrossLock, RunCross), with the {@code reason} label of {@code bourse_engine_admin_rejects_total} and the
 * {@link AdminResponseCode} of its AdminResponse. A refused command changes nothing and publishes no event but its
 * AdminResponse; each kind is logged the first time only.
 */
enum AdminReject
{
    /** SetTradingState, SetPriceBand, CrossLock or RunCross for a symbol this shard does not trade. */
    UNKNOWN_SYMBOL("unknown_symbol", AdminResponseCode.UNKNOWN_SYMBOL),
    /** SetPriceBand with a reference price outside 0 to $199,999.99 or a band above 10000 basis points. */
    INVALID_PRICE_BAND("invalid_price_band", AdminResponseCode.INVALID_PRICE_BAND),
    /** SetTradingState with a state value the schema does not define. */
    INVALID_TRADING_STATE("invalid_trading_state", AdminResponseCode.INVALID_TRADING_STATE),
    /** SetSelfTradePrevention with a mode value the schema does not define. */
    INVALID_SELF_TRADE_PREVENTION("invalid_self_trade_prevention", AdminResponseCode.INVALID_SELF_TRADE_PREVENTION),
    /** BreakTrade for a match number the shard never published, or published for another symbol. */
    UNKNOWN_MATCH_NUMBER("unknown_match_number", AdminResponseCode.UNKNOWN_MATCH_NUMBER),
    /**
     * BreakTrade of a closing-cross execution: its shares were printed in the cross's one Cross Trade (ITCH 5.0 'Q'),
     * which no Broken Trade can take apart.
     */
    CROSS_EXECUTION("cross_execution", AdminResponseCode.CROSS_EXECUTION),
    /** BreakTrade for a trade already broken. */
    TRADE_ALREADY_BROKEN("trade_already_broken", AdminResponseCode.TRADE_ALREADY_BROKEN),
    /** BreakTrade with a reason other than OUCH 4.2 Broken Trade E, C, S or X. */
    INVALID_BREAK_REASON("invalid_break_reason", AdminResponseCode.INVALID_BREAK_REASON),
    /** CrossLock while the symbol's cross is locked already. */
    CROSS_ALREADY_LOCKED("cross_already_locked", AdminResponseCode.CROSS_ALREADY_LOCKED),
    /** RunCross without a CrossLock before it (or a second RunCross after the cross ran). */
    CROSS_NOT_LOCKED("cross_not_locked", AdminResponseCode.CROSS_NOT_LOCKED),
    /** RunCross while the symbol is HALTED or CLOSED: the cross waits until it is OPEN. */
    SYMBOL_NOT_OPEN("symbol_not_open", AdminResponseCode.SYMBOL_NOT_OPEN);

    private final String label;
    private final AdminResponseCode code;

    AdminReject(final String label, final AdminResponseCode code)
    {
        this.label = label;
        this.code = code;
    }

    /** @return the metric label value. */
    String label()
    {
        return label;
    }

    /** @return the code of the command's AdminResponse. */
    AdminResponseCode code()
    {
        return code;
    }
}
