package io.bourse.gateway;

/**
 * Sends commands to the matching-engine shards (engine-schema.xml NewOrder, CancelOrder, ReplaceOrder, ClockTick).
 * Prices in 1/10000 dollars, quantities in shares, timestamps in nanoseconds since midnight. Every method returns
 * false (NewOrder, CancelOrder and ReplaceOrder: 0) when the command could not be handed over (shard not connected, or
 * back pressured past the bound) so that the caller answers the client instead of dropping the request. NewOrder,
 * CancelOrder and ReplaceOrder return where the command ends on the shard's command stream, which a run of the shard
 * that joins this gateway's publication past it (engine CommandStreamJoined) never takes.
 */
interface EngineProxy
{
    /**
     * @param shardId       shard that owns the symbol.
     * @param timestampNs   gateway receive time.
     * @param clientOrderId   the new order's id.
     * @param symbol          packed symbol.
     * @param buy             true to buy, false to sell (OUCH sides S, T and E).
     * @param quantity        shares.
     * @param price           limit price.
     * @param timeInForce     OUCH 4.2 Time in Force: 0 immediate or cancel, 1 to 99997 seconds, 99998 market hours,
     *                        99999 system hours (the engine rejects other values).
     * @param minimumQuantity shares that must execute on entry or nothing does; 0 for none.
     * @param firm            4 ASCII bytes as a big-endian int.
     * @param display         OUCH 4.2 Display code.
     * @param crossType       OUCH 4.2 Cross Type: N a continuous order, C a limit-on-close order for the closing cross.
     * @return the position of the shard's command stream just after the command, in bytes (greater than 0), when
     *         handed over; 0 when not.
     */
    long newOrder(
        int shardId, long timestampNs, long clientOrderId, long symbol, boolean buy, long quantity, long price,
        long timeInForce, long minimumQuantity, int firm, byte display, byte crossType);

    /**
     * @param shardId       shard that owns the order.
     * @param timestampNs   gateway receive time.
     * @param clientOrderId the order.
     * @param quantity      new intended size; 0 cancels the whole order.
     * @return the position of the shard's command stream just after the command, in bytes (greater than 0), when
     *         handed over; 0 when not.
     */
    long cancelOrder(int shardId, long timestampNs, long clientOrderId, long quantity);

    /**
     * @param shardId          shard that owns the order.
     * @param timestampNs      gateway receive time.
     * @param clientOrderId    the order to replace.
     * @param newClientOrderId the replacement's id.
     * @param quantity         shares the order may execute in all, its order/replace chain's executions included
     *                         (OUCH 4.2 Replace Order Shares).
     * @param price            new limit price in 1/10000 dollars.
     * @param timeInForce      the replacement's OUCH 4.2 Time in Force (0 to 99999; another than the order's applies
     *                         as at entry).
     * @return the position of the shard's command stream just after the command, in bytes (greater than 0), when
     *         handed over; 0 when not.
     */
    long replaceOrder(
        int shardId, long timestampNs, long clientOrderId, long newClientOrderId, long quantity, long price,
        long timeInForce);

    /**
     * @param shardId a shard this gateway sends to.
     * @return the Aeron session id of this gateway's command publication to the shard: the image a run of the shard
     *         names in its CommandStreamJoined.
     */
    int commandSessionId(int shardId);

    /**
     * Moves the shard's clock on without order flow, so that its good-till-seconds orders expire. One attempt (made
     * again at once when it rotated the stream's term), no retry through back pressure: a tick that is not handed over
     * is left to the next one.
     *
     * @param shardId     a shard.
     * @param timestampNs the gateway's time.
     * @return true when handed over.
     */
    boolean clockTick(int shardId, long timestampNs);

    /**
     * Whether the caller may read requests that can make up to {@code commands} commands, so that it reads no more
     * from its clients than the shards can take and TCP holds the rest back, rather than spinning on back pressure
     * (on a thread shared with the shards, which then never drain) or rejecting.
     *
     * @param commands most commands the caller is about to send, to any shards.
     * @return true when every shard's command stream can take that many commands without back pressure, or is not
     *         connected (its commands are then refused at once and answered).
     */
    boolean hasRoomFor(int commands);

    /**
     * @param shardId a shard.
     * @return true when the shard's command stream is connected and can take a command now without back pressure, so
     *         that one offered now is neither refused nor retried.
     */
    boolean canTake(int shardId);
}
