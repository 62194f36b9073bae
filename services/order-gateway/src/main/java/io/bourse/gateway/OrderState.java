package io.bourse.gateway;

import io.bourse.ouch.Ouch42;

import java.util.Arrays;

/**
 * What the gateway remembers of one order from its Enter Order (or Replace Order) until it is done: the session it
 * belongs to and that user's risk state, its token, the fields to echo in Accepted and Replaced, its open shares, when
 * the request the client is waiting on was received, the Modify Orders not yet answered, in arrival order (each with
 * the shares it asked for and the side it set), and where on the shard's command stream its commands went. Pooled
 * and reused; prices in 1/10000 dollars, quantities in shares.
 */
final class OrderState
{
    /** Most Modify Orders of one order awaiting their answer at once. */
    static final int MAX_PENDING_MODIFIES = 8;
    /** {@link #cancelToShares} of an order no cancel was sent for. */
    static final long NO_CANCEL = Long.MAX_VALUE;

    final byte[] token = new byte[Ouch42.TOKEN_LENGTH];
    /** For a replacement: the token of the order it replaces (OUCH 4.2 Replaced Previous Order Token). */
    final byte[] previousToken = new byte[Ouch42.TOKEN_LENGTH];
    private final long[] modifyShares = new long[MAX_PENDING_MODIFIES];
    private final byte[] modifySides = new byte[MAX_PENDING_MODIFIES];
    /** Per Modify Order awaiting its answer: its cancel is kept, not on the shard's command stream of this run. */
    private final boolean[] modifyCancelsKept = new boolean[MAX_PENDING_MODIFIES];
    private int modifyCount;
    UserSession session;
    PreTradeRisk.UserRisk risk;
    /**
     * True once the order counts among its user's and its firm's open orders: at entry, or for a replacement once it
     * replaced.
     */
    boolean countedOpen;
    /** Recorded in the day's {@link TradedOrders} already (at its first execution). */
    boolean traded;
    /** Open at the close of the day: its full cancel is the close's, answered Canceled 'T'. */
    boolean openAtClose;
    /**
     * The gateway's own full cancel of the order (on disconnect, or the close's) was taken by its shard: the order is
     * being canceled, and neither another session end nor the close sends one again.
     */
    boolean gatewayCancelSent;
    /**
     * The engine answered a full cancel of the order with Cancel Pending: a closing-cross order locked in the cross,
     * canceled only after it.
     */
    boolean cancelPending;
    long clientOrderId;
    int shardId;
    long orderReferenceNumber;
    byte side;
    long stock;
    long price;
    long timeInForce;
    int firm;
    byte display;
    byte capacity;
    byte intermarketSweepEligibility;
    long minimumQuantity;
    byte crossType;
    long openShares;
    /** Monotonic time the pending request was received, 0 when the client waits on nothing. */
    long requestNanoTime;
    /**
     * Rebuilt from a journal: start time (ms since the epoch) of the media driver an earlier gateway process sent the
     * order through ({@link OrderRecords#MEDIA_DRIVER}); 0 when sent by this process or not known.
     */
    long sentThroughMediaDriverMs;
    /**
     * Position of the shard's command stream just after this gateway process sent the order's NewOrder (a
     * replacement's ReplaceOrder), in bytes, on its own publication ({@link EngineProxy#commandSessionId}); 0 for one
     * rebuilt from a journal.
     */
    long commandPosition;
    /**
     * The smallest size, in shares, that the cancels of the order this gateway process sent through the engine, or kept
     * to send ({@link #cancelKept}), asked for: Cancel Orders, the cancels of Modify Orders, and the gateway's own full
     * cancels (on disconnect, the close's), 0 for a full cancel; {@link #NO_CANCEL} when none, or forgotten at a Cancel
     * Reject. A cancel down to a size does nothing to an order already at or below it, so this one cancel stands for
     * all of them when they are sent again.
     */
    long cancelToShares = NO_CANCEL;
    /**
     * Position of the shard's command stream just after the last cancel that asked for {@link #cancelToShares}, in
     * bytes, on this gateway's own publication; 0 when none, or when it is kept, not sent yet.
     */
    long cancelToPosition;

    /**
     * Remembers a cancel of the order that the shard's command stream took.
     *
     * @param shares   the size it cancels the order down to, 0 for all of it.
     * @param position where it ends on the command stream, in bytes.
     */
    void cancelSent(final long shares, final long position)
    {
        if (shares <= cancelToShares)
        {
            cancelToShares = shares;
            cancelToPosition = position;
        }
    }

    /**
     * Remembers a cancel of the order that the shard's command stream could not take now, to be sent again: it stands
     * for every cancel down to a larger size, as {@link #cancelSent} does, with no position on the stream.
     *
     * @param shares the size it cancels the order down to, 0 for all of it.
     */
    void cancelKept(final long shares)
    {
        cancelSent(shares, 0);
    }

    /**
     * The engine refused a cancel down to a size (Cancel Reject: a closing-cross order during the cross lock): forgets
     * the cancels down to a size, which would be refused again; a full cancel is kept (during the lock the engine takes
     * it, Cancel Pending).
     */
    void forgetPartialCancels()
    {
        if (cancelToShares > 0)
        {
            cancelToShares = NO_CANCEL;
            cancelToPosition = 0;
        }
    }

    /** @return how many Modify Orders await their answer. */
    int pendingModifies()
    {
        return modifyCount;
    }

    /**
     * @param index 0 for the oldest Modify Order awaiting its answer, up to {@link #pendingModifies()} less one.
     * @return the shares it asked for.
     */
    long pendingModifyShares(final int index)
    {
        return modifyShares[index];
    }

    /** @return true when another Modify Order can be queued. */
    boolean canQueueModify()
    {
        return modifyCount < MAX_PENDING_MODIFIES;
    }

    /**
     * Queues a Modify Order behind those not yet answered; check {@link #canQueueModify()} first.
     *
     * @param shares     the new intended size it asked for.
     * @param side       the Buy/Sell Indicator it set.
     * @param cancelKept true when its cancel is kept, to be sent once the shard can take it.
     */
    void queueModify(final long shares, final byte side, final boolean cancelKept)
    {
        modifyShares[modifyCount] = shares;
        modifySides[modifyCount] = side;
        modifyCancelsKept[modifyCount] = cancelKept;
        modifyCount++;
    }

    /**
     * @param index 0 for the oldest Modify Order awaiting its answer, up to {@link #pendingModifies()} less one.
     * @return true when its cancel is kept, not sent yet.
     */
    boolean isModifyCancelKept(final int index)
    {
        return modifyCancelsKept[index];
    }

    /** @param index a Modify Order awaiting its answer whose kept cancel the shard has now taken. */
    void modifyCancelSent(final int index)
    {
        modifyCancelsKept[index] = false;
    }

    /** @return true when a Modify Order awaiting its answer has its cancel kept. */
    boolean hasKeptModifyCancel()
    {
        for (int i = 0; i < modifyCount; i++)
        {
            if (modifyCancelsKept[i])
            {
                return true;
            }
        }
        return false;
    }

    /**
     * The run of the shard that took the order's cancels never answered them (a join past them): every one is to be
     * sent again, each Modify Order's and the smallest, as if kept.
     */
    void keepEveryCancel()
    {
        Arrays.fill(modifyCancelsKept, 0, modifyCount, true);
        cancelToPosition = 0;
    }

    /** @return true when a Modify Order awaits its answer. */
    boolean hasPendingModify()
    {
        return modifyCount > 0;
    }

    /** @return the shares asked for by the oldest Modify Order awaiting its answer. */
    long firstModifyShares()
    {
        return modifyShares[0];
    }

    /** @return the side set by the oldest Modify Order awaiting its answer. */
    byte firstModifySide()
    {
        return modifySides[0];
    }

    /** @return the side set by the newest Modify Order awaiting its answer; check {@link #hasPendingModify()} first. */
    byte lastModifySide()
    {
        return modifySides[modifyCount - 1];
    }

    /**
     * @return true once the engine acknowledged the order (Accepted, or Replaced for a replacement): it has its order
     * reference number.
     */
    boolean isAcknowledged()
    {
        return 0 != orderReferenceNumber;
    }

    /** Forgets the oldest Modify Order awaiting its answer: it was answered. */
    void removeFirstModify()
    {
        modifyCount--;
        System.arraycopy(modifyShares, 1, modifyShares, 0, modifyCount);
        System.arraycopy(modifySides, 1, modifySides, 0, modifyCount);
        System.arraycopy(modifyCancelsKept, 1, modifyCancelsKept, 0, modifyCount);
    }

    /** Forgets everything, ready for the pool. */
    void reset()
    {
        Arrays.fill(token, (byte)' ');
        Arrays.fill(previousToken, (byte)' ');
        modifyCount = 0;
        session = null;
        risk = null;
        countedOpen = false;
        traded = false;
        openAtClose = false;
        gatewayCancelSent = false;
        cancelPending = false;
        clientOrderId = 0;
        shardId = 0;
        orderReferenceNumber = 0;
        side = 0;
        stock = 0;
        price = 0;
        timeInForce = 0;
        firm = 0;
        display = 0;
        capacity = 0;
        intermarketSweepEligibility = 0;
        minimumQuantity = 0;
        crossType = 0;
        openShares = 0;
        requestNanoTime = 0;
        sentThroughMediaDriverMs = 0;
        commandPosition = 0;
        cancelToShares = NO_CANCEL;
        cancelToPosition = 0;
    }
}
