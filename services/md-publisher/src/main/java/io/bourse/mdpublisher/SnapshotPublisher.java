package io.bourse.mdpublisher;

import io.aeron.Publication;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.bourse.common.aeron.BoundedOffer;
import io.bourse.common.config.Symbols;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.sbe.md.BookSnapshotEncoder;
import io.bourse.sbe.md.MessageHeaderDecoder;
import io.bourse.sbe.md.MessageHeaderEncoder;
import io.bourse.sbe.md.SnapshotCompleteEncoder;
import io.bourse.sbe.md.SnapshotRequestDecoder;
import io.bourse.sbe.md.TradingState;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Answers SnapshotRequest (schemas/market-data-schema.xml, read from the snapshot-request stream) with a snapshot of
 * every book on the market-data stream, one for all the requests of a duty cycle (subscribers recovering at once, or
 * one asking again): per symbol, in the directory's order, one or more BookSnapshot messages (its
 * trading state and displayed orders, bids from the highest price then offers from the lowest, each level oldest
 * first, as many orders as fit one frame of the publication so that no message is fragmented), then
 * SnapshotComplete with the number of BookSnapshot messages. Every message carries the sequence number of the last
 * increment published: it runs on the publisher thread between two engine events, so the books are exactly those the
 * increments up to that number build, and the next increment follows it.
 *
 * <p>A snapshot whose offer fails (no subscriber, or back pressure past the bounded retries) is abandoned and counted
 * as an error; its subscriber sees no SnapshotComplete and asks again. A request of another schema or template is
 * counted as an error. Allocates nothing per snapshot.
 */
final class SnapshotPublisher implements FragmentHandler
{
    private static final int HEADER_LENGTH = MessageHeaderEncoder.ENCODED_LENGTH;
    private static final int GROUP_HEADER_LENGTH = 4;

    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final SnapshotRequestDecoder requestDecoder = new SnapshotRequestDecoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final BookSnapshotEncoder bookSnapshot = new BookSnapshotEncoder();
    private final SnapshotCompleteEncoder snapshotComplete = new SnapshotCompleteEncoder();
    private final Publication publication;
    private final BoundedOffer boundedOffer;
    private final SymbolBook[] books;
    private final MarketDataProxy proxy;
    private final MidnightNanoClock clock;
    private final MdPublisherMetrics metrics;
    private final AtomicLong errorCount;
    private final UnsafeBuffer buffer;
    private final int ordersPerMessage;
    private boolean requested;
    private long requestedId;
    private SymbolBook cursorBook;
    private BookLevels cursorSide;
    private int cursorLevel;
    private BookOrder cursorOrder;

    /**
     * @param publication  the market-data stream; its frame size bounds the orders per message.
     * @param boundedOffer retries back pressure for a bounded time.
     * @param books        the books, kept by the same thread.
     * @param proxy        gives the sequence number of the last increment published.
     * @param clock        stamps the snapshot.
     * @param metrics      counts the snapshots published, and the failed offer that abandons one as a drop.
     * @param errorCount   incremented for a bad request and for an abandoned snapshot.
     * @throws IllegalArgumentException when a frame cannot hold one order.
     */
    SnapshotPublisher(
        final Publication publication, final BoundedOffer boundedOffer, final MarketDataBooks books,
        final MarketDataProxy proxy, final MidnightNanoClock clock, final MdPublisherMetrics metrics,
        final AtomicLong errorCount)
    {
        this.publication = publication;
        this.boundedOffer = boundedOffer;
        this.books = books.books();
        this.proxy = proxy;
        this.clock = clock;
        this.metrics = metrics;
        this.errorCount = errorCount;
        final int frame = publication.maxPayloadLength();
        this.ordersPerMessage = (frame - HEADER_LENGTH - BookSnapshotEncoder.BLOCK_LENGTH - GROUP_HEADER_LENGTH) /
            BookSnapshotEncoder.OrdersEncoder.sbeBlockLength();
        if (ordersPerMessage < 1)
        {
            throw new IllegalArgumentException("md-publisher: a frame of " + frame + " bytes holds no snapshot order");
        }
        this.buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(frame));
    }

    /**
     * Reads one SnapshotRequest: a snapshot is due, published by {@link #publishRequested()}; requests read in the
     * same duty cycle share it.
     */
    @Override
    public void onFragment(final DirectBuffer request, final int offset, final int length, final Header header)
    {
        if (length < HEADER_LENGTH + SnapshotRequestDecoder.BLOCK_LENGTH)
        {
            errorCount.incrementAndGet();
            return;
        }
        headerDecoder.wrap(request, offset);
        if (headerDecoder.schemaId() != SnapshotRequestDecoder.SCHEMA_ID ||
            headerDecoder.templateId() != SnapshotRequestDecoder.TEMPLATE_ID)
        {
            errorCount.incrementAndGet();
            return;
        }
        requestDecoder.wrapAndApplyHeader(request, offset, headerDecoder);
        requested = true;
        requestedId = requestDecoder.requestId();
    }

    /**
     * Publishes the snapshot the requests read since the last call ask for, if any: one for all of them, carrying the
     * last one's id (a subscriber takes any whole snapshot, its own or another's).
     *
     * @return 1 when a snapshot was due, else 0.
     */
    int publishRequested()
    {
        if (!requested)
        {
            return 0;
        }
        requested = false;
        publish(requestedId);
        return 1;
    }

    /**
     * Publishes a snapshot of every book.
     *
     * @param snapshotId the request answered.
     */
    private void publish(final long snapshotId)
    {
        final long sequenceNumber = proxy.lastSequenceNumber();
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
                if (!offer(encode(book, sequenceNumber, timestampNs, snapshotId, messageCount, count)))
                {
                    return;
                }
                messageCount++;
                remaining -= count;
            }
            while (remaining > 0);
        }
        final int length = HEADER_LENGTH + snapshotComplete.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sequenceNumber(sequenceNumber)
            .timestampNs(timestampNs)
            .snapshotId(snapshotId)
            .messageCount(messageCount)
            .encodedLength();
        if (offer(length))
        {
            metrics.onSnapshot();
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

    private boolean offer(final int length)
    {
        final long result = boundedOffer.offer(publication, buffer, 0, length);
        if (result > 0)
        {
            return true;
        }
        metrics.onDrop(result);
        errorCount.incrementAndGet();
        return false;
    }
}
