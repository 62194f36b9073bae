/**
 * Market-data publisher: reads every engine shard's events, keeps order-by-order books and publishes L3, trade, L2
 * and L1 market data with one feed sequence number.
 */
package io.bourse.mdpublisher;
