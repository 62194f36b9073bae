package io.bourse.mdpublisher;

import org.agrona.DirectBuffer;

/**
 * Takes each increment of the SBE order feed (schemas/market-data-schema.xml: AddOrder, OrderExecuted,
 * OrderExecutedWithPrice, OrderCancel, OrderDelete, OrderReplace, StockTradingAction, Trade, BrokenTrade, CrossTrade)
 * on the md-publisher's thread, as {@link MarketDataProxy} encodes it, whether or not its offer to the feed's Aeron
 * publication succeeds: a consumer in the md-publisher's own process, such as the MoldUDP64 feed, so never misses one.
 */
@FunctionalInterface
interface OrderFeedListener
{
    /** Takes nothing: the md-publisher without a MoldUDP64 feed. */
    OrderFeedListener NONE = (buffer, offset, length) -> {};

    /**
     * @param buffer holds the message: SBE message header then body, valid only during the call.
     * @param offset of the message header in the buffer.
     * @param length of the message in bytes, header included.
     */
    void onOrderFeedMessage(DirectBuffer buffer, int offset, int length);
}
