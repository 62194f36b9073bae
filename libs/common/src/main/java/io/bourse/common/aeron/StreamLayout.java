package io.bourse.common.aeron;

import io.aeron.ChannelUri;
import io.aeron.CommonContext;
import io.bourse.common.config.Settings;

/**
 * Where the services meet on Aeron: the media driver directory, and channel plus stream id of the engine command
 * streams (one per shard), the engine event streams (one per shard), the md-publisher's four market-data feeds (the
 * order feed, L3 with trades and trading actions, on the market-data stream; the depth (L2), BBO (L1) and trades
 * feeds on their own streams of the feed channel, each feed with its own sequence numbers) and the snapshot-request
 * stream on which their subscribers ask the md-publisher for a snapshot of every book. Channels default to
 * {@code aeron:ipc} (one host; the order feed's with longer terms, {@link #MARKET_DATA_CHANNEL_DEFAULT}, and the other
 * feeds' too, {@link #FEED_CHANNEL_DEFAULT}); any of them can be set to {@code aeron:udp?endpoint=host:port} without
 * code changes.
 *
 * @param aeronDirectoryName media driver directory (default {@value #AERON_DIR_DEFAULT}).
 * @param commandChannel     channel of the gateway-to-engine command streams.
 * @param commandStreamBase  stream id of shard 0's commands; shard k uses base + k.
 * @param eventChannel       channel of the engine event streams.
 * @param eventStreamBase    stream id of shard 0's events; shard k uses base + k.
 * @param marketDataChannel  channel of the md-publisher's order feed (L3 order by order, trades, trading actions).
 * @param marketDataStreamId stream id of the order feed: the market-data stream.
 * @param feedChannel        channel of the md-publisher's depth, BBO and trades feeds.
 * @param depthStreamId      stream id of the depth feed (L2 price levels).
 * @param bboStreamId        stream id of the BBO feed (L1 best bid and offer).
 * @param tradesStreamId     stream id of the trades feed.
 * @param snapshotRequestChannel  channel of the market-data subscribers' snapshot requests to the md-publisher.
 * @param snapshotRequestStreamId stream id of the snapshot requests.
 */
public record StreamLayout(
    String aeronDirectoryName,
    String commandChannel,
    int commandStreamBase,
    String eventChannel,
    int eventStreamBase,
    String marketDataChannel,
    int marketDataStreamId,
    String feedChannel,
    int depthStreamId,
    int bboStreamId,
    int tradesStreamId,
    String snapshotRequestChannel,
    int snapshotRequestStreamId)
{
    /**
     * @throws IllegalArgumentException when two of the market-data streams (the four feeds and the snapshot requests)
     *                                  are one stream: the same stream id on channels that meet (any two
     *                                  {@code aeron:ipc} channels, whatever their parameters; UDP channels of the same
     *                                  endpoint and control address), so that their publishers would interleave.
     */
    public StreamLayout
    {
        final String[] channels = {marketDataChannel, feedChannel, feedChannel, feedChannel, snapshotRequestChannel};
        final int[] streamIds =
            {marketDataStreamId, depthStreamId, bboStreamId, tradesStreamId, snapshotRequestStreamId};
        for (int i = 0; i < streamIds.length; i++)
        {
            for (int j = i + 1; j < streamIds.length; j++)
            {
                if (streamIds[i] == streamIds[j] && transport(channels[i]).equals(transport(channels[j])))
                {
                    throw new IllegalArgumentException("market-data streams share stream " + streamIds[i] + " on " +
                        channels[i] + " and " + channels[j] + ": the order, depth, BBO and trades feeds and the " +
                        "snapshot requests each need their own");
                }
            }
        }
    }

    /** @return what Aeron matches a subscription to a publication by, apart from the stream id. */
    private static String transport(final String channel)
    {
        final ChannelUri uri = ChannelUri.parse(channel);
        return CommonContext.IPC_MEDIA.equals(uri.media()) ? CommonContext.IPC_MEDIA :
            uri.media() + " " + uri.get(CommonContext.ENDPOINT_PARAM_NAME) + " " +
            uri.get(CommonContext.MDC_CONTROL_PARAM_NAME);
    }

    /** Default media driver directory, shared by containers through {@code ipc: host}. */
    public static final String AERON_DIR_DEFAULT = "/dev/shm/aeron-bourse";
    /** Default channel of the engine command and event streams. */
    public static final String CHANNEL_DEFAULT = "aeron:ipc";
    /**
     * Default channel of the market data: {@code aeron:ipc} with 64 MiB terms, not the driver's
     * {@link #IPC_TERM_LENGTH_DEFAULT}. The md-publisher gives a message up (a gap, counted) after about 10 ms of back
     * pressure, so this stream keeps a 32 MiB window, seconds of market data, to ride out a subscriber's GC pause;
     * the engine streams need no such margin, as the engine holds its events and the gateway its reads instead.
     */
    public static final String MARKET_DATA_CHANNEL_DEFAULT = "aeron:ipc?term-length=67108864";
    /**
     * Default channel of the depth, BBO and trades feeds: {@code aeron:ipc} with 16 MiB terms, so that each keeps an
     * 8 MiB window (some 87,000 of their 96-byte frames) to ride out a subscriber's pause as the order feed does (the
     * same thread offers all four feeds), in 48 MiB of log buffer each instead of the order feed's 192 MiB.
     */
    public static final String FEED_CHANNEL_DEFAULT = "aeron:ipc?term-length=16777216";
    /**
     * Default term length of the media driver's {@code aeron:ipc} publications, in bytes: 4 MiB, so that a stream's
     * three terms (12 MiB) stay near the caches where Aeron's default (64 MiB terms) streams every message through
     * memory; a publication's window is half a term (2 MiB, some 16,000 engine commands). The largest message is an
     * eighth of a term (512 KiB); Bourse's are all under 256 bytes. {@code bench gateway} at 500,000 orders/s: 1.96 to
     * 2.06 us of exchange-thread CPU per order at 4 MiB, 2.28 to 2.32 us at 64 MiB.
     */
    public static final int IPC_TERM_LENGTH_DEFAULT = 4 * 1024 * 1024;

    /**
     * @param settings source of {@code bourse.aeron.dir}, {@code bourse.command.channel},
     *                 {@code bourse.command.stream.base}, {@code bourse.event.channel},
     *                 {@code bourse.event.stream.base}, {@code bourse.md.channel}, {@code bourse.md.stream},
     *                 {@code bourse.md.feed.channel}, {@code bourse.md.depth.stream}, {@code bourse.md.bbo.stream},
     *                 {@code bourse.md.trades.stream}, {@code bourse.md.request.channel},
     *                 {@code bourse.md.request.stream}.
     * @return the configured layout.
     */
    public static StreamLayout fromSettings(final Settings settings)
    {
        return new StreamLayout(
            settings.get("bourse.aeron.dir", AERON_DIR_DEFAULT),
            settings.get("bourse.command.channel", CHANNEL_DEFAULT),
            settings.getInt("bourse.command.stream.base", 1000),
            settings.get("bourse.event.channel", CHANNEL_DEFAULT),
            settings.getInt("bourse.event.stream.base", 2000),
            settings.get("bourse.md.channel", MARKET_DATA_CHANNEL_DEFAULT),
            settings.getInt("bourse.md.stream", 3000),
            settings.get("bourse.md.feed.channel", FEED_CHANNEL_DEFAULT),
            settings.getInt("bourse.md.depth.stream", 3002),
            settings.getInt("bourse.md.bbo.stream", 3003),
            settings.getInt("bourse.md.trades.stream", 3004),
            settings.get("bourse.md.request.channel", CHANNEL_DEFAULT),
            settings.getInt("bourse.md.request.stream", 3001));
    }

    /**
     * @param aeronDirectoryName another media driver directory.
     * @return this layout on that directory.
     */
    public StreamLayout withAeronDirectory(final String aeronDirectoryName)
    {
        return new StreamLayout(aeronDirectoryName, commandChannel, commandStreamBase, eventChannel, eventStreamBase,
            marketDataChannel, marketDataStreamId, feedChannel, depthStreamId, bboStreamId, tradesStreamId,
            snapshotRequestChannel, snapshotRequestStreamId);
    }

    /**
     * @param eventChannel another channel for the engine event streams, e.g. {@code aeron:ipc?term-length=65536}.
     * @return this layout with the engine event streams on that channel.
     */
    public StreamLayout withEventChannel(final String eventChannel)
    {
        return new StreamLayout(aeronDirectoryName, commandChannel, commandStreamBase, eventChannel, eventStreamBase,
            marketDataChannel, marketDataStreamId, feedChannel, depthStreamId, bboStreamId, tradesStreamId,
            snapshotRequestChannel, snapshotRequestStreamId);
    }

    /**
     * @param marketDataChannel another channel for the md-publisher's order feed, e.g.
     *                          {@code aeron:ipc?term-length=65536}.
     * @return this layout with the order feed on that channel.
     */
    public StreamLayout withMarketDataChannel(final String marketDataChannel)
    {
        return new StreamLayout(aeronDirectoryName, commandChannel, commandStreamBase, eventChannel, eventStreamBase,
            marketDataChannel, marketDataStreamId, feedChannel, depthStreamId, bboStreamId, tradesStreamId,
            snapshotRequestChannel, snapshotRequestStreamId);
    }

    /**
     * A subscription that must never hold its stream back for long: an untethered one (Aeron's {@code tether=false})
     * that reads too late is left behind by the publisher instead of slowing it, once it has lagged a term window for
     * the media driver's untethered window limit timeout and a linger; its image goes unavailable, and after the
     * driver's untethered resting timeout it joins again where the slowest of the stream's other readers stands, as a
     * new image.
     *
     * @param channel an Aeron channel URI, e.g. {@code aeron:ipc}.
     * @return the same channel with {@code tether=false}.
     */
    public static String untethered(final String channel)
    {
        final ChannelUri uri = ChannelUri.parse(channel);
        uri.put(CommonContext.TETHER_PARAM_NAME, "false");
        return uri.toString();
    }

    /**
     * @param shardId engine shard.
     * @return stream id of that shard's command stream.
     */
    public int commandStreamId(final int shardId)
    {
        return commandStreamBase + shardId;
    }

    /**
     * @param shardId engine shard.
     * @return stream id of that shard's event stream.
     */
    public int eventStreamId(final int shardId)
    {
        return eventStreamBase + shardId;
    }
}
