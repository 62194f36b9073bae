/**
 * Market-data publisher: reads every engine shard's events, keeps order-by-order books and publishes them as four
 * SBE feeds over Aeron, each with its own sequence numbers (the order feed, L3 with trades and trading actions; depth,
 * L2; BBO, L1; trades), and sends the order feed as NASDAQ TotalView-ITCH 5.0 over MoldUDP64 multicast with a
 * re-request server.
 */
package io.bourse.mdpublisher;
