package io.bourse.gateway;

import io.bourse.ouch.Ouch42;

/**
 * Why the gateway refused a request, with the {@code reason} label of {@code bourse_gateway_rejects_total} and the
 * OUCH 4.2 Rejected reason sent to the client. OUCH 4.2 has no code for a bad token or side, so those get 'O'
 * (Other); an engine shard that cannot take the command makes its symbols untradeable for now, which OUCH 4.2 calls
 * 'H' (Halted: no orders can be accepted in this stock at this time).
 */
enum RejectCause
{
    /** Order Token empty or with characters outside printable ASCII. */
    INVALID_TOKEN("invalid_token", Ouch42.REJECT_OTHER),
    /** Order Token already used today in this session (OUCH 4.2 tokens are day-unique). */
    DUPLICATE_TOKEN("duplicate_token", Ouch42.REJECT_OTHER),
    /** Buy/Sell Indicator not B, S, T or E. */
    INVALID_SIDE("invalid_side", Ouch42.REJECT_OTHER),
    /** Shares 0 or above the gateway's limit. */
    INVALID_SHARES("invalid_shares", Ouch42.REJECT_SHARES_EXCEED_THRESHOLD),
    /** Stock not traded here. */
    INVALID_STOCK("invalid_stock", Ouch42.REJECT_INVALID_STOCK),
    /** Price 0 or above $199,999.99. */
    INVALID_PRICE("invalid_price", Ouch42.REJECT_INVALID_PRICE),
    /** Display other than A, Y, N, P or M (OUCH 4.2 values Bourse does not support, e.g. I imbalance only). */
    INVALID_DISPLAY("invalid_display", Ouch42.REJECT_INVALID_DISPLAY_TYPE),
    /** Replace or cancel of a token that names no open order. */
    UNKNOWN_ORDER("unknown_order", Ouch42.REJECT_OTHER),
    /** Replace Order asking for another time in force: the engine keeps an order's time in force. */
    TIME_IN_FORCE_CHANGE("time_in_force_change", Ouch42.REJECT_OTHER),
    /** Replace Order asking for another display: the engine keeps an order's display. */
    DISPLAY_CHANGE("display_change", Ouch42.REJECT_INVALID_DISPLAY_TYPE),
    /**
     * Replace Order with a minimum quantity: the engine takes one on immediate-or-cancel entries only, and those never
     * rest, so no open order can have one.
     */
    REPLACE_MINIMUM_QUANTITY("replace_minimum_quantity", Ouch42.REJECT_INVALID_MINIMUM_QUANTITY),
    /** The command could not be offered to the engine shard (not connected, or back pressured past the bound). */
    ENGINE_UNAVAILABLE("engine_unavailable", Ouch42.REJECT_HALTED),
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
