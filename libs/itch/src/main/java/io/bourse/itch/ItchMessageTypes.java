package io.bourse.itch;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;

/**
 * The ITCH 5.0 message types Bourse's market data carries (§4: System Event, Stock Directory, Stock Trading Action;
 * Add Order with and without MPID Attribution, Order Executed with and without price, Order Cancel, Order Delete,
 * Order Replace; Trade, Cross Trade, Broken Trade), each with the metric label that names it, for the services that
 * count messages by type (the fanout's out, the simulator's in).
 */
public final class ItchMessageTypes
{
    /** Label of a message type Bourse does not send. */
    public static final String OTHER = "other";

    private static final byte[] TYPES = {
        ITCH50.MESSAGE_TYPE_SYSTEM_EVENT,
        ITCH50.MESSAGE_TYPE_STOCK_DIRECTORY,
        ITCH50.MESSAGE_TYPE_STOCK_TRADING_ACTION,
        ITCH50.MESSAGE_TYPE_ADD_ORDER,
        ITCH50.MESSAGE_TYPE_ADD_ORDER_MPID,
        ITCH50.MESSAGE_TYPE_ORDER_EXECUTED,
        ITCH50.MESSAGE_TYPE_ORDER_EXECUTED_WITH_PRICE,
        ITCH50.MESSAGE_TYPE_ORDER_CANCEL,
        ITCH50.MESSAGE_TYPE_ORDER_DELETE,
        ITCH50.MESSAGE_TYPE_ORDER_REPLACE,
        ITCH50.MESSAGE_TYPE_TRADE,
        ITCH50.MESSAGE_TYPE_CROSS_TRADE,
        ITCH50.MESSAGE_TYPE_BROKEN_TRADE,
    };
    private static final String[] LABELS = {
        "system_event",
        "stock_directory",
        "stock_trading_action",
        "add_order",
        "add_order_mpid",
        "order_executed",
        "order_executed_with_price",
        "order_cancel",
        "order_delete",
        "order_replace",
        "trade",
        "cross_trade",
        "broken_trade",
    };

    private ItchMessageTypes()
    {
    }

    /** @return a copy of the message types, each an ASCII letter. */
    public static byte[] types()
    {
        return TYPES.clone();
    }

    /**
     * @param type an ITCH 5.0 Message Type.
     * @return its label in lower snake case, e.g. {@code add_order} for 'A'; {@link #OTHER} for a type Bourse does not
     *         send.
     */
    public static String label(final byte type)
    {
        for (int i = 0; i < TYPES.length; i++)
        {
            if (TYPES[i] == type)
            {
                return LABELS[i];
            }
        }
        return OTHER;
    }
}
