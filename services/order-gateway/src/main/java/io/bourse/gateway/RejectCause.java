package io.bourse.gateway;

import io.bourse.ouch.Ouch42;

/**
 * Why the gateway refused a request, with the {@code reason} label of {@code bourse_gateway_rejects_total} and the OUCH
 * 4.2 Rejected reason sent to the client. OUCH 4.2 has no code for a bad token, a token beyond the day's capacity, a
 * side, time in force, malformed firm, capacity, intermarket sweep eligibility or customer type, for too many open
 * orders or for too many orders per second, so those get 'O' (Other); an engine shard that cannot take the command
 * makes its symbols untradeable for now, which OUCH 4.2 calls 'H' (Halted: no orders can be accepted in this stock at
 * this time). The causes of a Modify Order the gateway ignores are counted only: OUCH 4.2 answers no message to them.
 * So are those of a Replace Order, which OUCH 4.2 &sect;2.2 answers with no message (an unknown existing token, a used
 * replacement token) or with the existing order's Canceled (any other refusal), and an Enter Order's used token: a
 * resent Enter Order, which OUCH 4.2 &sect;1.1 lets a client send benignly, so it gets no answer either.
 */
enum RejectCause
{
    /** Order Token empty or with characters outside printable ASCII. */
    INVALID_TOKEN("invalid_token", Ouch42.REJECT_OTHER),
    /** Order Token already used today in this session (OUCH 4.2 tokens are day-unique): counted, never answered. */
    DUPLICATE_TOKEN("duplicate_token", Ouch42.REJECT_OTHER),
    /**
     * A new Order Token when the session has used as many today as {@code bourse.gateway.max.session.tokens} allows:
     * the day's tokens are kept to ignore duplicates, so they take heap, and the capacity bounds it.
     */
    SESSION_TOKEN_CAPACITY("session_token_capacity", Ouch42.REJECT_OTHER),
    /**
     * A new Order Token when all sessions together have used as many today as {@code bourse.gateway.max.day.tokens}
     * allows.
     */
    DAY_TOKEN_CAPACITY("day_token_capacity", Ouch42.REJECT_OTHER),
    /** More Enter and Replace Orders per second than the user's token bucket allows. */
    RATE_LIMIT("rate_limit", Ouch42.REJECT_OTHER),
    /** Buy/Sell Indicator not B, S, T or E. */
    INVALID_SIDE("invalid_side", Ouch42.REJECT_OTHER),
    /** Shares 0 or above the gateway's safety threshold. */
    INVALID_SHARES("invalid_shares", Ouch42.REJECT_SHARES_EXCEED_THRESHOLD),
    /** Stock not traded here. */
    INVALID_STOCK("invalid_stock", Ouch42.REJECT_INVALID_STOCK),
    /** Price 0 or above $199,999.99. */
    INVALID_PRICE("invalid_price", Ouch42.REJECT_INVALID_PRICE),
    /** Price of $1 or more not in whole cents (sub-dollar prices may use every 1/10000 dollar). */
    OFF_TICK_PRICE("off_tick_price", Ouch42.REJECT_INVALID_PRICE),
    /** Time in Force above 99999 (99998 market hours and 99999 system hours are the largest values). */
    INVALID_TIME_IN_FORCE("invalid_time_in_force", Ouch42.REJECT_OTHER),
    /** Firm neither blank nor upper-case letters and digits, left-justified and space padded. */
    INVALID_FIRM("invalid_firm", Ouch42.REJECT_OTHER),
    /**
     * Firm other than the user's (its credentials' firm; blank names it): one user enters orders for one firm, whose
     * self-trade prevention, market-data attribution and pre-trade limits they take (no service bureau accounts).
     */
    FIRM_NOT_AUTHORIZED("firm_not_authorized", Ouch42.REJECT_FIRM_NOT_AUTHORIZED),
    /**
     * Display other than A, Y, N, P or M (OUCH 4.2 values Bourse does not support, e.g. I imbalance only), or
     * post-only with time in force 0 (a post-only order must be able to rest).
     */
    INVALID_DISPLAY("invalid_display", Ouch42.REJECT_INVALID_DISPLAY_TYPE),
    /** Capacity not A (agency), P (principal), R (riskless) or O (other). */
    INVALID_CAPACITY("invalid_capacity", Ouch42.REJECT_OTHER),
    /** Intermarket Sweep Eligibility not Y or N. */
    INVALID_INTERMARKET_SWEEP("invalid_intermarket_sweep", Ouch42.REJECT_OTHER),
    /**
     * Minimum Quantity above the shares, or set on an order that is not immediate-or-cancel (the engine takes one on
     * immediate-or-cancel entries only, so that no resting order has one).
     */
    INVALID_MINIMUM_QUANTITY("invalid_minimum_quantity", Ouch42.REJECT_INVALID_MINIMUM_QUANTITY),
    /** Cross Type O (opening) or H (halt/IPO): Bourse runs the closing cross only. */
    CROSS_NOT_SUPPORTED("cross_not_supported", Ouch42.REJECT_NOT_ALLOWED_IN_CROSS),
    /**
     * Cross Type C with a Time in Force other than 99998 (market hours) or 99999 (system hours): a limit-on-close
     * order waits for the cross, so immediate-or-cancel and good-till-seconds are not allowed in it (the engine's
     * rule, its reason).
     */
    CROSS_TIME_IN_FORCE("cross_time_in_force", Ouch42.REJECT_NOT_ALLOWED_IN_CROSS),
    /**
     * Cross Type C with a Display other than A (attributable) or Y (anonymous): non-displayed, post-only and midpoint
     * peg mean nothing in the cross (the engine's rule, its reason).
     */
    CROSS_DISPLAY("cross_display", Ouch42.REJECT_INVALID_DISPLAY_TYPE),
    /** Cross Type that is not an OUCH 4.2 value. */
    INVALID_CROSS_TYPE("invalid_cross_type", Ouch42.REJECT_OTHER),
    /** Customer Type not R (retail), N (not retail) or blank (the port's default). */
    INVALID_CUSTOMER_TYPE("invalid_customer_type", Ouch42.REJECT_OTHER),
    /** Shares above the user's pre-trade limit. */
    RISK_MAX_ORDER_SHARES("risk_max_order_shares", Ouch42.REJECT_EXCEEDED_SHARES_LIMIT),
    /** Price times shares above the user's pre-trade limit. */
    RISK_MAX_NOTIONAL("risk_max_notional", Ouch42.REJECT_EXCEEDED_DOLLAR_VALUE_LIMIT),
    /** The user already has as many open orders as the pre-trade limit allows. */
    RISK_MAX_OPEN_ORDERS("risk_max_open_orders", Ouch42.REJECT_OTHER),
    /** A buy above, or a sell below, the user's price collar around the symbol's reference price. */
    RISK_PRICE_BAND("risk_price_band", Ouch42.REJECT_INVALID_PRICE),
    /** More Enter and Replace Orders per second of all the firm's users than the firm's token bucket allows. */
    FIRM_RATE_LIMIT("firm_rate_limit", Ouch42.REJECT_OTHER),
    /** Shares above the pre-trade limit of the user's firm. */
    FIRM_MAX_ORDER_SHARES("firm_max_order_shares", Ouch42.REJECT_EXCEEDED_SHARES_LIMIT),
    /** Price times shares above the pre-trade limit of the user's firm. */
    FIRM_MAX_NOTIONAL("firm_max_notional", Ouch42.REJECT_EXCEEDED_DOLLAR_VALUE_LIMIT),
    /** The users of the firm already have as many open orders, together, as the firm's pre-trade limit allows. */
    FIRM_MAX_OPEN_ORDERS("firm_max_open_orders", Ouch42.REJECT_OTHER),
    /** A buy above, or a sell below, the firm's price collar around the symbol's reference price. */
    FIRM_PRICE_BAND("firm_price_band", Ouch42.REJECT_INVALID_PRICE),
    /** Replace, cancel or modify of a token that names no open order (counted only). */
    UNKNOWN_ORDER("unknown_order", Ouch42.REJECT_OTHER),
    /** Replace Order asking for another display: an order keeps its display for life, market data included. */
    DISPLAY_CHANGE("display_change", Ouch42.REJECT_INVALID_DISPLAY_TYPE),
    /**
     * Replace Order with a minimum quantity: Bourse takes one on an immediate-or-cancel Enter Order only, which is
     * checked once, at entry.
     */
    REPLACE_MINIMUM_QUANTITY("replace_minimum_quantity", Ouch42.REJECT_INVALID_MINIMUM_QUANTITY),
    /** Modify Order changing buy to a sell side or back, or to a value that is no side (ignored, counted only). */
    MODIFY_SIDE("modify_side", Ouch42.REJECT_OTHER),
    /** Modify Order asking for more shares than are open (ignored, counted only). */
    MODIFY_INCREASE("modify_increase", Ouch42.REJECT_OTHER),
    /** Modify Order on an order with too many modifications still in flight (ignored, counted only). */
    MODIFY_BACKLOG("modify_backlog", Ouch42.REJECT_OTHER),
    /**
     * Enter or Replace Order after the gateway closed the trading day ({@link MarketClose}): OUCH 4.2 'C', the
     * exchange is closed.
     */
    EXCHANGE_CLOSED("exchange_closed", Ouch42.REJECT_CLOSED),
    /** The command could not be offered to the engine shard (not connected, or back pressured past the bound). */
    ENGINE_UNAVAILABLE("engine_unavailable", Ouch42.REJECT_HALTED),
    /**
     * An order or replacement that an earlier gateway process sent through a media driver since restarted, and that no
     * answer reached: no engine run on the new driver will take it
     * ({@link OrderEntry#rejectOrdersLostWithTheirMediaDriver}); 'H', as for a command the shard could not take.
     */
    MEDIA_DRIVER_RESTARTED("media_driver_restarted", Ouch42.REJECT_HALTED),
    /**
     * An order or replacement that a run of its shard took off the command stream and stopped (or died) without
     * answering, its events held back by a slow subscriber: the shard's next run joined this gateway's publication past
     * it (engine CommandStreamJoined) and no run will answer it ({@link OrderEntry#onCommandStreamJoined}); 'H', as for
     * a command the shard could not take.
     */
    COMMAND_LOST_WITH_ENGINE_RUN("command_lost_with_engine_run", Ouch42.REJECT_HALTED),
    /** The engine refused the command; its own reason code is sent. */
    ENGINE("engine", Ouch42.REJECT_OTHER);

    private final String label;
    private final byte reason;

    RejectCause(final String label, final byte reason)
    {
        this.label = label;
        this.reason = reason;
    }

    /** @return the metric label value. */
    String label()
    {
        return label;
    }

    /** @return the OUCH 4.2 Rejected reason. */
    byte reason()
    {
        return reason;
    }
}
