package io.bourse.simulator;

import java.util.Arrays;
import java.util.Locale;

/**
 * Which feed the simulator's market-data sessions read, chosen with {@code bourse.simulator.md.feed}
 * ({@code BOURSE_SIMULATOR_MD_FEED}). Both carry the same NASDAQ TotalView-ITCH 5.0 messages; the end-of-run book check
 * takes its snapshot from the fanout over SoupBinTCP with either.
 */
public enum MarketDataFeed
{
    /**
     * ITCH 5.0 over SoupBinTCP 4.0 from the fanout: one TCP session per market-data session, which starts with the
     * fanout's snapshot. TCP delivers every byte in order, so the feed cannot have a gap.
     */
    SOUPBINTCP,
    /**
     * ITCH 5.0 over MoldUDP64 1.00 multicast from the md-publisher: each market-data session joins the group, detects
     * a gap from the Downstream Packets' Sequence Numbers and fills it with Request Packets to the md-publisher's
     * re-request server; a session that joins late asks for everything from Sequence Number 1.
     */
    MOLDUDP64;

    /** @return the name used in settings, e.g. {@code moldudp64}. */
    public String settingName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param name setting value, case-insensitive, e.g. {@code moldudp64}.
     * @return the feed.
     * @throws IllegalArgumentException naming the known feeds if the name is not one of them.
     */
    public static MarketDataFeed of(final String name)
    {
        for (final MarketDataFeed feed : values())
        {
            if (feed.settingName().equalsIgnoreCase(name.trim()))
            {
                return feed;
            }
        }
        throw new IllegalArgumentException("unknown market-data feed '" + name + "', expected one of " +
            Arrays.stream(values()).map(MarketDataFeed::settingName).toList());
    }
}
