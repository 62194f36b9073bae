/**
 * NASDAQ TotalView-ITCH 5.0 from Bourse SBE market data: the translator every ITCH feed (SoupBinTCP from the fanout,
 * MoldUDP64 from the md-publisher) shares, and the session-start reference data.
 */
package io.bourse.itch;
