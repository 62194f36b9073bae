/**
 * Market-data publisher: reads every engine shard's events, keeps order-by-order books and publishes L3, trade, L2
 * and L1 market data with one feed sequence number, and sends that market data as NASDAQ TotalView-ITCH 5.0 over
 * MoldUDP64 multicast with a re-request server.
 */
package io.bourse.mdpublisher;
