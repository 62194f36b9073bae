/**
 * Fan-out: one market-data subscription translated to NASDAQ TotalView-ITCH 5.0 once, handed to worker threads that
 * each serve a group of SoupBinTCP 4.0 subscriber sessions.
 */
package io.bourse.fanout;
