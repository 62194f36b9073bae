package io.bourse.mdpublisher;

import io.aeron.Publication;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.bourse.common.aeron.BoundedOffer;
import io.bourse.common.config.Symbols;
import io.bourse.common.metrics.ErrorKinds;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.sbe.md.BookSnapshotEncoder;
import io.bourse.sbe.md.Feed;
import io.bourse.sbe.md.MessageHeaderDecoder;
import io.bourse.sbe.md.MessageHeaderEncoder;
import io.bourse.sbe.md.PriceLevelSnapshotEncoder;
import io.bourse.sbe.md.SnapshotCompleteEncoder;
import io.bourse.sbe.md.SnapshotRequestDecoder;
import io.bourse.sbe.md.TradingState;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Answers SnapshotRequest (schemas/market-data-schema.xml, read from the snapshot-request stream) with a snapshot of
 * every book on the stream of the feed it names, one per feed for all the requests of a duty cycle (subscribers
 * recovering at once, or one asking again):
 * <ul>
 *     <li>the order feed (a request of schema version 3 or 4, which names none): per symbol, in the directory's
 *     order, one or more BookSnapshot messages (its trading state and displayed orders, bids from the highest price
 *     then offers from the lowest, each level oldest first);</li>
 *     <li>the depth feed (L2): per symbol one or more PriceLevelSnapshot messages with the price levels its
 *     PriceLevelUpdates have published (every level, or each side's best N with {@code BOURSE_MD_L2_DEPTH});</li>
 *     <li>the BBO feed (L1): per symbol one PriceLevelSnapshot with each side's best level, none for an empty
 *     side;</li>
 *     <li>the trades feed, which has no state: no message before SnapshotComplete, which says where the feed
 *     stands.</li>
 * </ul>
 * Each message holds as many orders or levels as fit one frame of the feed's publication, so that none is fragmented,
 * and SnapshotComplete follows with the number of messages. Every message carries the sequence number of the feed's
 * last increment published: it runs on the publisher thread between two engine events, so the books are exactly
 * those the feed's increments up to that number build, and the feed's next increment follows it.
 *
 * <p>A snapshot whose offer fails (no subscriber, or back pressure past the bounded retries) is abandoned and counted
 * as a drop and, unless no subscriber is left (a fanout that asked and went away), as an error; its subscriber sees no
 * SnapshotComplete and asks again. A request of another schema or template, too
 * short for its block length, or naming an unknown feed is counted as an error. Allocates nothing per snapshot.
 */
final class SnapshotPublisher implements FragmentHandler
{
    private static final int HEADER_LENGTH = MessageHeaderEncoder.ENCODED_LENGTH;
    private static final int GROUP_HEADER_LENGTH = 4;
    private static final Feed[] FEEDS = FeedPublication.FEEDS;
    /** A SnapshotRequest of schema version 3 or 4: the request id only. */
    private static final int MIN_BLOCK_LENGTH =
        SnapshotRequestDecoder.requestIdEncodingOffset() + SnapshotRequestDecoder.requestIdEncodingLength();
    private static final int FEED_SINCE_VERSION = SnapshotRequestDecoder.feedSinceVersion();

    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final SnapshotRequestDecoder requestDecoder = new SnapshotRequestDecoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final BookSnapshotEncoder bookSnapshot = new BookSnapshotEncoder();
    private final PriceLevelSnapshotEncoder levelSnapshot = new PriceLevelSnapshotEncoder();
    private final SnapshotCompleteEncoder snapshotComplete = new SnapshotCompleteEncoder();
    private final BoundedOffer boundedOffer;
    private final SymbolBook[] books;
    private final MarketDataProxy proxy;
    private final MidnightNanoClock clock;
    private final MdPublisherMetrics metrics;
    private final ErrorKinds<MdPublisherError> errors;
    private final UnsafeBuffer buffer;
    private final int ordersPerMessage;
    private final int levelsPerMessage;
    /** By feed ordinal: whether a snapshot is due, and the id of the last request read for it. */
    private final boolean[] requested = new boolean[FEEDS.length];
    private final long[] requestedId = new long[FEEDS.length];
    private SymbolBook cursorBook;
    private BookLevels cursorSide;
    private int cursorLevel;
    private BookOrder cursorOrder;

    /**
     * @param boundedOffer retries back pressure for a bounded time.
     * @param books        the books, kept by the same thread.
     * @param proxy        gives each feed's publication, whose frame size bounds the orders or levels per message,
     *                     and the sequence number of its last increment published.
     * @param clock        stamps the snapshot.
     * @param metrics      counts the snapshots published, and the failed offer that abandons one as a drop.
     * @param errors       counts a bad request and a snapshot abandoned while its feed has a subscriber.
     * @throws IllegalArgumentException when a frame cannot hold one order or one level.
     */
    SnapshotPublisher(
        final BoundedOffer boundedOffer, final MarketDataBooks books, final MarketDataProxy proxy,
        final MidnightNanoClock clock, final MdPublisherMetrics metrics, final ErrorKinds<MdPublisherError> errors)
    {
        this.boundedOffer = boundedOffer;
        this.books = books.books();
        this.proxy = proxy;
        this.clock = clock;
        this.metrics = metrics;
        this.errors = errors;
        final int ordersFrame = proxy.feed(Feed.ORDERS).publication.maxPayloadLength();
        this.ordersPerMessage = (ordersFrame - HEADER_LENGTH - BookSnapshotEncoder.BLOCK_LENGTH - GROUP_HEADER_LENGTH) /
            BookSnapshotEncoder.OrdersEncoder.sbeBlockLength();
        final int levelsFrame = Math.min(
            proxy.feed(Feed.DEPTH).publication.maxPayloadLength(), proxy.feed(Feed.BBO).publication.maxPayloadLength());
        this.levelsPerMessage =
            (levelsFrame - HEADER_LENGTH - PriceLevelSnapshotEncoder.BLOCK_LENGTH - GROUP_HEADER_LENGTH) /
            PriceLevelSnapshotEncoder.LevelsEncoder.sbeBlockLength();
        if (ordersPerMessage < 1)
        {
            throw new IllegalArgumentException(
                "md-publisher: a frame of " + ordersFrame + " bytes holds no snapshot order");
        }
        if (levelsPerMessage < 1)
        {
            throw new IllegalArgumentException(
                "md-publisher: a frame of " + levelsFrame + " bytes holds no snapshot level");
        }
        this.buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(Math.max(ordersFrame, levelsFrame)));
    }

    /**
     * Reads one SnapshotRequest: a snapshot of the feed it names (the order feed when it names none: schema version 3
     * or 4, or a block without the field) is due, published by {@link #publishRequested()}; requests for a feed read in
     * the same duty cycle share it.
     */
    @Override
    public void onFragment(final DirectBuffer request, final int offset, final int length, final Header header)
    {
        if (length < HEADER_LENGTH)
        {
            errors.error(MdPublisherError.BAD_SNAPSHOT_REQUEST, "snapshot request", "length", length);
            return;
        }
        headerDecoder.wrap(request, offset);
        if (headerDecoder.schemaId() != SnapshotRequestDecoder.SCHEMA_ID ||
            headerDecoder.templateId() != SnapshotRequestDecoder.TEMPLATE_ID ||
            headerDecoder.blockLength() < MIN_BLOCK_LENGTH ||
            length < HEADER_LENGTH + headerDecoder.blockLength())
        {
            if (errors.errorToLog(MdPublisherError.BAD_SNAPSHOT_REQUEST))
            {
                errors.log(MdPublisherError.BAD_SNAPSHOT_REQUEST, "snapshot request", "schema " +
                    headerDecoder.schemaId() + " template " + headerDecoder.templateId() + " block length " +
                    headerDecoder.blockLength() + " length " + length);
            }
            return;
        }
        requestDecoder.wrapAndApplyHeader(request, offset, headerDecoder);
        final boolean namesNoFeed = headerDecoder.version() < FEED_SINCE_VERSION ||
            headerDecoder.blockLength() < SnapshotRequestDecoder.BLOCK_LENGTH;
        final Feed feed = namesNoFeed ? Feed.ORDERS : feed(requestDecoder.feedRaw());
        if (null == feed)
        {
            errors.error(MdPublisherError.BAD_SNAPSHOT_REQUEST, "snapshot request", "feed", requestDecoder.feedRaw());
            return;
        }
        requested[feed.ordinal()] = true;
        requestedId[feed.ordinal()] = requestDecoder.requestId();
    }

    /**
     * Publishes the snapshots the requests read since the last call ask for, if any: one per feed for all of them,
     * carrying the last one's id (a subscriber takes any whole snapshot, its own or another's).
     *
     * @return the number of snapshots that were due.
     */
    int publishRequested()
    {
        int due = 0;
        for (final Feed feed : FEEDS)
        {
            if (requested[feed.ordinal()])
            {
                requested[feed.ordinal()] = false;
                due++;
                final long snapshotId = requestedId[feed.ordinal()];
                switch (feed)
                {
                    case ORDERS -> publishOrders(snapshotId);
                    case DEPTH, BBO -> publishLevels(feed, snapshotId);
                    case TRADES -> publishTrades(snapshotId);
                    default -> throw new IllegalStateException("feed " + feed);
                }
            }
        }
        return due;
    }

    private static Feed feed(final byte value)
    {
        for (final Feed feed : FEEDS)
        {
            if (feed.value() == value)
            {
                return feed;
            }
        }
        return null;
    }

    /**
     * Publishes a snapshot of every book on the order feed.
     *
     * @param snapshotId the request answered.
     */
    private void publishOrders(final long snapshotId)
    {
        final FeedPublication orders = proxy.feed(Feed.ORDERS);
        final long sequenceNumber = orders.lastSequenceNumber();
        final long timestampNs = clock.nanosSinceMidnight();
        int messageCount = 0;
        for (final SymbolBook book : books)
        {
            cursorBook = book;
            cursorSide = book.bids;
            cursorLevel = 0;
            cursorOrder = null;
            int remaining = book.bids.orderCount() + book.asks.orderCount();
            do
            {
                final int count = Math.min(remaining, ordersPerMessage);
                if (!offer(orders, encode(book, sequenceNumber, timestampNs, snapshotId, messageCount, count)))
                {
                    return;
                }
                messageCount++;
                remaining -= count;
            }
            while (remaining > 0);
        }
        complete(orders, sequenceNumber, timestampNs, snapshotId, messageCount);
    }

    /**
     * Publishes a snapshot of every book's price levels on the depth or the BBO feed.
     *
     * @param feed       DEPTH or BBO.
     * @param snapshotId the request answered.
     */
    private void publishLevels(final Feed feed, final long snapshotId)
    {
        final FeedPublication publication = proxy.feed(feed);
        final long sequenceNumber = publication.lastSequenceNumber();
        final long timestampNs = clock.nanosSinceMidnight();
        int messageCount = 0;
        for (final SymbolBook book : books)
        {
            final int bids = levelCount(feed, book, Side.BUY);
            final int asks = levelCount(feed, book, Side.SELL);
            int written = 0;
            do
            {
                final int count = Math.min(bids + asks - written, levelsPerMessage);
                levelSnapshot.wrapAndApplyHeader(buffer, 0, headerEncoder)
                    .sequenceNumber(sequenceNumber)
                    .timestampNs(timestampNs)
                    .snapshotId(snapshotId)
                    .messageIndex(messageCount)
                    .feed(feed);
                Symbols.unpack(book.symbol, buffer, HEADER_LENGTH + PriceLevelSnapshotEncoder.symbolEncodingOffset());
                final PriceLevelSnapshotEncoder.LevelsEncoder levels = levelSnapshot.levelsCount(count);
                for (int i = written; i < written + count; i++)
                {
                    final PriceLevel level = i < bids ? book.bids.level(i) : book.asks.level(i - bids);
                    levels.next()
                        .side(i < bids ? io.bourse.sbe.md.Side.BUY : io.bourse.sbe.md.Side.SELL)
                        .price(level.price)
                        .quantity(level.totalShares)
                        .orderCount(level.orderCount);
                }
                if (!offer(publication, HEADER_LENGTH + levelSnapshot.encodedLength()))
                {
                    return;
                }
                messageCount++;
                written += count;
            }
            while (written < bids + asks);
        }
        complete(publication, sequenceNumber, timestampNs, snapshotId, messageCount);
    }

    /**
     * Publishes the end of a snapshot alone on the trades feed, which has no state: it says where the feed stands.
     *
     * @param snapshotId the request answered.
     */
    private void publishTrades(final long snapshotId)
    {
        final FeedPublication trades = proxy.feed(Feed.TRADES);
        complete(trades, trades.lastSequenceNumber(), clock.nanosSinceMidnight(), snapshotId, 0);
    }

    /**
     * @return the levels of the side the feed publishes: on the depth feed every level or the window's depth, on the
     * BBO feed the best one.
     */
    private static int levelCount(final Feed feed, final SymbolBook book, final Side side)
    {
        final int levels = book.levels(side).levelCount();
        if (Feed.BBO == feed)
        {
            return Math.min(1, levels);
        }
        final PublishedLevels window = book.publishedLevels(side);
        return null == window ? levels : Math.min(window.depth(), levels);
    }

    private void complete(
        final FeedPublication feed, final long sequenceNumber, final long timestampNs, final long snapshotId,
        final int messageCount)
    {
        final int length = HEADER_LENGTH + snapshotComplete.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sequenceNumber(sequenceNumber)
            .timestampNs(timestampNs)
            .snapshotId(snapshotId)
            .messageCount(messageCount)
            .encodedLength();
        if (offer(feed, length))
        {
            metrics.onSnapshot(feed.feed);
        }
    }

    private int encode(
        final SymbolBook book, final long sequenceNumber, final long timestampNs, final long snapshotId,
        final int messageIndex, final int orderCount)
    {
        bookSnapshot.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sequenceNumber(sequenceNumber)
            .timestampNs(timestampNs)
            .snapshotId(snapshotId)
            .messageIndex(messageIndex)
            .tradingState(TradingState.get(book.tradingState))
            .tradingStateTimestampNs(book.tradingStateTimestampNs);
        Symbols.unpack(book.symbol, buffer, HEADER_LENGTH + BookSnapshotEncoder.symbolEncodingOffset());
        buffer.putInt(HEADER_LENGTH + BookSnapshotEncoder.reasonEncodingOffset(), book.tradingReason,
            ByteOrder.BIG_ENDIAN);
        final BookSnapshotEncoder.OrdersEncoder orders = bookSnapshot.ordersCount(orderCount);
        for (int i = 0; i < orderCount; i++)
        {
            final BookOrder order = nextOrder();
            orders.next()
                .orderId(order.orderId)
                .side(order.side == Side.BUY ? io.bourse.sbe.md.Side.BUY : io.bourse.sbe.md.Side.SELL)
                .quantity(order.openShares)
                .price(order.price)
                .timestampNs(order.timestampNs);
            final int attribution = MarketDataProxy.attributionField(order.attribution);
            for (int b = 0; b < Integer.BYTES; b++)
            {
                orders.attribution(b, (byte)(attribution >>> (Byte.SIZE * (Integer.BYTES - 1 - b))));
            }
        }
        return HEADER_LENGTH + bookSnapshot.encodedLength();
    }

    /** @return the next order of the book being written: bids best level first, then offers, each oldest first. */
    private BookOrder nextOrder()
    {
        while (null == cursorOrder)
        {
            if (cursorLevel == cursorSide.levelCount())
            {
                cursorSide = cursorBook.asks;
                cursorLevel = 0;
            }
            cursorOrder = cursorSide.level(cursorLevel++).first;
        }
        final BookOrder order = cursorOrder;
        cursorOrder = order.next;
        return order;
    }

    private boolean offer(final FeedPublication feed, final int length)
    {
        final long result = boundedOffer.offer(feed.publication, buffer, 0, length);
        if (result > 0)
        {
            return true;
        }
        metrics.onDrop(feed.feed, result);
        if (result != Publication.NOT_CONNECTED)
        {
            errors.error(MdPublisherError.OFFER_FAILED, feed.feed, "snapshot offer result", result);
        }
        return false;
    }
}
