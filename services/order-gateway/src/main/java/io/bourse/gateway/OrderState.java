package io.bourse.gateway;

import io.bourse.ouch.Ouch42;

import java.util.Arrays;

/**
 * What the gateway remembers of one order from its Enter Order (or Replace Order) until it is done: the session it
 * belongs to, its token, the fields to echo in Accepted and Replaced, its open shares and when the request the
 * client is waiting on was received. Pooled and reused; prices in 1/10000 dollars, quantities in shares.
 */
final class OrderState
{
    final byte[] token = new byte[Ouch42.TOKEN_LENGTH];
    /** For a replacement: the token of the order it replaces (OUCH 4.2 Replaced Previous Order Token). */
    final byte[] previousToken = new byte[Ouch42.TOKEN_LENGTH];
    UserSession session;
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

    /** Forgets everything, ready for the pool. */
    void reset()
    {
        Arrays.fill(token, (byte)' ');
        Arrays.fill(previousToken, (byte)' ');
        session = null;
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
    }
}
