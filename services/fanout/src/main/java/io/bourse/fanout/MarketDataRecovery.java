package io.bourse.fanout;

import io.aeron.Image;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.bourse.common.aeron.BoundedOffer;
import io.bourse.itch.ItchTranslator;
import io.bourse.sbe.md.AddOrderEncoder;
import io.bourse.sbe.md.BookSnapshotDecoder;
import io.bourse.sbe.md.EndOfFeedDecoder;
import io.bourse.sbe.md.Feed;
import io.bourse.sbe.md.MessageHeaderDecoder;
import io.bourse.sbe.md.MessageHeaderEncoder;
import io.bourse.sbe.md.SnapshotCompleteDecoder;
import io.bourse.sbe.md.SnapshotRequestEncoder;
import io.bourse.sbe.md.StockTradingActionEncoder;
import io.bourse.sbe.md.TradingState;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Keeps the fanout's {@link ItchBook} in step with the market-data stream (schemas/market-data-schema.xml, version
 * 3 recovery): the book follows the increments of one publisher (one Aeron image) in sequence, and is rebuilt from a
 * snapshot at start, after a gap, when that publisher goes away without ending its feed, and when a next publisher
 * comes after it ended its feed (version 6 EndOfFeed).
 *
 * <p>Recovering, it sends SnapshotRequest on the snapshot-request stream once the market-data stream is connected,
 * and again when no snapshot message has come for {@link #REQUEST_TIMEOUT_NS} (the md-publisher not up yet, or a
 * snapshot abandoned); it skips the increments, which the snapshot to come includes, since the md-publisher answers
 * on the same stream after them. A snapshot is taken whole or not at all: BookSnapshot messages of one snapshot id
 * from index 0 in a row on one image, each one's orders applied to the book as ITCH Add Orders (in priority order)
 * and its trading state as a Stock Trading Action; at SnapshotComplete with the count of messages received the book
 * stands after the snapshot's sequence number, and the increment after it is the next one applied. A snapshot
 * answering another subscriber's request serves as well as one's own; snapshots that come while in step are ignored.
 *
 * <p>In step, an increment that is not the next sequence number of the followed image is a gap: the book is no longer
 * the stream's, and recovery starts again. So is an increment of a newer image than the followed one (a larger
 * correlation id: its publisher started later) while the followed image is still there: an md-publisher that crashed
 * leaves its image for as long as the media driver takes to time its client out (about 10 s), during which its
 * successor's increments came and the books stood still, served to new logins as if current. Increments of an older
 * image are ignored (the dispatcher counts them as errors): a second md-publisher started by mistake is followed, the
 * first one's ignored, and a snapshot is taken from the newest image only, so that the two cannot take turns. The
 * dispatcher ends the sessions served from the old book.
 *
 * <p>An EndOfFeed of the followed image (schema version 6: its publisher stops) that names the last increment applied
 * ends the feed: the book is final and stays in step, so the publisher's image may go without a gap (its stop is no
 * crash), and the fanout that stops next ends its sessions' day whole. The first sign of a next publisher after it, an
 * image newer than those there at the end or a message of another session, starts recovery again, as a gap does (that
 * publisher's increments, from 1, continue no book the sessions hold). An EndOfFeed that names another sequence number
 * is a gap (increments are missing), and so is an increment of the ended image.
 *
 * <p>Single-threaded: the dispatcher's. Allocates nothing per message; a snapshot's orders are translated one by one
 * through a scratch SBE message, and the cause of a gap is put in words when it happens.
 */
final class MarketDataRecovery
{
    /** {@link #onMessage}: the next increment of the followed image, to apply. */
    static final int APPLY = 0;
    /** {@link #onMessage}: an increment while recovering, which the snapshot to come includes. */
    static final int SKIP = 1;
    /**
     * {@link #onMessage} and {@link #doWork}: a gap, the followed image gone without ending its feed, or a next
     * publisher after the end; recovery has started again ({@link #lastGapCause}).
     */
    static final int GAP = 2;
    /** {@link #onMessage}: in step, an increment of an image other than the followed one, ignored. */
    static final int OTHER_PUBLISHER = 3;
    /** {@link #onMessage}: a recovery message taken into the snapshot under way, or ignored. */
    static final int TAKEN = 4;
    /** {@link #onMessage}: the SnapshotComplete of a whole snapshot: the book is in step from the next increment. */
    static final int RECOVERED = 5;
    /** {@link #onMessage}: the followed image's EndOfFeed after the last increment applied: the book is final. */
    static final int ENDED = 6;
    /** A request unanswered this long, or a snapshot stalled this long, is sent again. */
    static final long REQUEST_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(1);

    private static final int SEQUENCE_NUMBER_OFFSET = MessageHeaderDecoder.ENCODED_LENGTH;
    private static final int BODY_OFFSET = MessageHeaderEncoder.ENCODED_LENGTH;
    private static final int SCRATCH_LENGTH = 128;
    private static final long NO_IMAGE_MARKED = Long.MIN_VALUE;
    /** Correlation id of no image: below every image's. */
    private static final long NO_IMAGE = -1;

    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final BookSnapshotDecoder bookSnapshot = new BookSnapshotDecoder();
    private final SnapshotCompleteDecoder snapshotComplete = new SnapshotCompleteDecoder();
    private final EndOfFeedDecoder endOfFeed = new EndOfFeedDecoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final SnapshotRequestEncoder snapshotRequest = new SnapshotRequestEncoder();
    private final AddOrderEncoder addOrder = new AddOrderEncoder();
    private final StockTradingActionEncoder stockTradingAction = new StockTradingActionEncoder();
    private final UnsafeBuffer scratch = new UnsafeBuffer(ByteBuffer.allocateDirect(SCRATCH_LENGTH));
    private final ByteBuffer itch = ByteBuffer.allocateDirect(ItchTranslator.MAX_LENGTH);
    private final UnsafeBuffer itchBuffer = new UnsafeBuffer(itch);
    private final Subscription marketData;
    private final Publication snapshotRequests;
    private final LongSupplier requestIds;
    private final ItchTranslator translator;
    private final ItchBook book;
    private final NanoClock clock;
    /** Volatile: the metrics thread reads it for the readiness. */
    private volatile boolean live;
    private int imageSessionId;
    /** The followed image's correlation id: an image with a larger one is a newer publisher's. */
    private long imageCorrelationId;
    private long nextSequenceNumber;
    private boolean requested;
    private long lastProgressNs;
    /** A snapshot message was taken since the last {@link #doWork}: the request is being answered. */
    private boolean progressed;
    private boolean snapshotUnderWay;
    private long snapshotId;
    private long snapshotSequenceNumber;
    private int snapshotImage;
    private int nextMessageIndex;
    /** The followed image ended its feed: no increment follows on it. */
    private boolean ended;
    /** With the feed ended, the newest image's correlation id at the first duty cycle after the end. */
    private long newestImageAtEnd;
    private String lastGapCause = "";

    /**
     * @param marketData       the market-data stream, whose images are checked; null for none (messages handed to
     *                         {@link #onMessage} only, without {@link #doWork}).
     * @param snapshotRequests the snapshot-request stream.
     * @param requestIds       ids for requests, unique per media driver ({@code Aeron::nextCorrelationId}).
     * @param translator       SBE to ITCH, the dispatcher's.
     * @param book             rebuilt from the snapshots.
     * @param clock            times the requests; read only while recovering.
     */
    MarketDataRecovery(
        final Subscription marketData, final Publication snapshotRequests, final LongSupplier requestIds,
        final ItchTranslator translator, final ItchBook book, final NanoClock clock)
    {
        this.marketData = marketData;
        this.snapshotRequests = snapshotRequests;
        this.requestIds = requestIds;
        this.translator = translator;
        this.book = book;
        this.clock = clock;
    }

    /**
     * @return true when the book stands after the last increment applied, false while recovering; safe to call from
     *         any thread.
     */
    boolean isLive()
    {
        return live;
    }

    /** @return whether the followed image has ended its feed: the book is final until a next publisher's. */
    boolean isEnded()
    {
        return ended;
    }

    /** @return the cause of the last gap, or of the last recovery started by a next publisher, for a log line. */
    String lastGapCause()
    {
        return lastGapCause;
    }

    /**
     * Sends a snapshot request when one is due, and starts recovery when the followed publisher has gone without
     * ending its feed, or when a next publisher's image has come after it ended its feed. A request the
     * stream refuses (back pressure, no subscriber) is sent again after {@link #REQUEST_TIMEOUT_NS}; one that reaches
     * the end of the stream's term goes into the next term at once ({@link BoundedOffer#offerAcrossRotation}).
     *
     * @return {@link #GAP} when recovery has started, else 0 or 1 for the work done.
     */
    int doWork()
    {
        if (live)
        {
            if (ended)
            {
                final long newestImage = newestImage();
                if (NO_IMAGE_MARKED == newestImageAtEnd)
                {
                    newestImageAtEnd = newestImage; // the images there since the end are no next publisher's
                }
                else if (newestImage > newestImageAtEnd)
                {
                    return gap("a next md-publisher's stream (Aeron image) came after the last one ended its feed");
                }
            }
            else if (null == marketData.imageBySessionId(imageSessionId))
            {
                return gap("the md-publisher's stream (Aeron image) has gone without ending its feed, after " +
                    "sequence number " + (nextSequenceNumber - 1));
            }
            return 0;
        }
        final long nowNs = clock.nanoTime();
        if (progressed)
        {
            progressed = false;
            lastProgressNs = nowNs;
        }
        if ((!requested || nowNs - lastProgressNs >= REQUEST_TIMEOUT_NS) && marketData.isConnected())
        {
            final int length = MessageHeaderEncoder.ENCODED_LENGTH + snapshotRequest
                .wrapAndApplyHeader(scratch, 0, headerEncoder)
                .requestId(requestIds.getAsLong())
                .feed(Feed.ORDERS)
                .encodedLength();
            requested = true;
            lastProgressNs = nowNs;
            return BoundedOffer.offerAcrossRotation(snapshotRequests, scratch, 0, length) > 0 ? 1 : 0;
        }
        return 0;
    }

    /**
     * Takes one market-data message: a recovery message into the snapshot under way, an increment through the
     * sequence check.
     *
     * @param buffer    holds the SBE message.
     * @param offset    of its header.
     * @param length    of the message.
     * @param sessionId of the image it came on.
     * @return {@link #RECOVERED} when it completed a snapshot, {@link #ENDED} for the followed image's EndOfFeed after
     *         the last increment applied, {@link #TAKEN} for any other recovery message (taken or ignored here), else
     *         {@link #APPLY}, {@link #SKIP}, {@link #GAP} or {@link #OTHER_PUBLISHER} for an increment. A message too
     *         short to carry a sequence number, or of another schema, is {@link #APPLY} when in step: the translator
     *         counts it, and it makes no gap.
     */
    int onMessage(final DirectBuffer buffer, final int offset, final int length, final int sessionId)
    {
        if (length >= MessageHeaderDecoder.ENCODED_LENGTH)
        {
            headerDecoder.wrap(buffer, offset);
            if (headerDecoder.schemaId() == MessageHeaderDecoder.SCHEMA_ID)
            {
                switch (headerDecoder.templateId())
                {
                    case BookSnapshotDecoder.TEMPLATE_ID ->
                    {
                        if (!live)
                        {
                            bookSnapshot.wrapAndApplyHeader(buffer, offset, headerDecoder);
                            onBookSnapshot(sessionId);
                        }
                        return TAKEN;
                    }
                    case SnapshotCompleteDecoder.TEMPLATE_ID ->
                    {
                        if (live)
                        {
                            return TAKEN;
                        }
                        snapshotComplete.wrapAndApplyHeader(buffer, offset, headerDecoder);
                        onSnapshotComplete(sessionId);
                        return live ? RECOVERED : TAKEN;
                    }
                    case EndOfFeedDecoder.TEMPLATE_ID ->
                    {
                        if (!live || length < SEQUENCE_NUMBER_OFFSET + EndOfFeedDecoder.BLOCK_LENGTH)
                        {
                            return TAKEN; // a snapshot to come, from a next publisher, makes the book
                        }
                        endOfFeed.wrapAndApplyHeader(buffer, offset, headerDecoder);
                        return onEndOfFeed(endOfFeed.sequenceNumber(), sessionId);
                    }
                    default ->
                    {
                        if (length >= SEQUENCE_NUMBER_OFFSET + Long.BYTES)
                        {
                            return onIncrement(
                                buffer.getLong(offset + SEQUENCE_NUMBER_OFFSET, ByteOrder.LITTLE_ENDIAN), sessionId);
                        }
                    }
                }
            }
        }
        return !live ? SKIP : sessionId != imageSessionId ? OTHER_PUBLISHER : APPLY;
    }

    private int onIncrement(final long sequenceNumber, final int sessionId)
    {
        if (!live)
        {
            return SKIP;
        }
        if (ended)
        {
            return gap(sessionId != imageSessionId ?
                "a next md-publisher's increment came after the last one ended its feed" :
                "an increment after the md-publisher ended its feed after sequence number " + (nextSequenceNumber - 1));
        }
        if (sessionId != imageSessionId)
        {
            return isNewerImage(sessionId) ? gap("a newer md-publisher's stream (Aeron image) sent an increment " +
                "while the one followed was still there: its md-publisher is taken for dead (a crash), not waited " +
                "for until the media driver times it out") : OTHER_PUBLISHER;
        }
        if (sequenceNumber != nextSequenceNumber)
        {
            return gap("expected market-data sequence number " + nextSequenceNumber + ", got " + sequenceNumber);
        }
        nextSequenceNumber++;
        return APPLY;
    }

    private int onEndOfFeed(final long lastSequenceNumber, final int sessionId)
    {
        if (sessionId != imageSessionId)
        {
            return ended ? gap("a next md-publisher's feed ended after the last one's") : OTHER_PUBLISHER;
        }
        if (ended || lastSequenceNumber != nextSequenceNumber - 1)
        {
            return gap("the md-publisher ended its feed after sequence number " + lastSequenceNumber +
                ", expected " + (nextSequenceNumber - 1));
        }
        ended = true;
        newestImageAtEnd = NO_IMAGE_MARKED;
        return ENDED;
    }

    /**
     * @return true when the image of the session is newer than the followed one (a larger correlation id): a
     *         publisher that started after it. A few reads of the subscription's images, no allocation.
     */
    private boolean isNewerImage(final int sessionId)
    {
        return correlationId(sessionId) > imageCorrelationId;
    }

    /** @return true when the session's image is the stream's newest (no image has a larger correlation id). */
    private boolean isNewestImage(final int sessionId)
    {
        return correlationId(sessionId) >= newestImage();
    }

    /**
     * @return the correlation id of the session's image, {@link #NO_IMAGE} when the stream has none of that session
     *         (or there is no stream: messages handed to {@link #onMessage} without one).
     */
    private long correlationId(final int sessionId)
    {
        final Image image = null == marketData ? null : marketData.imageBySessionId(sessionId);
        return null == image ? NO_IMAGE : image.correlationId();
    }

    /** @return the largest correlation id of the stream's images (a newer image has a larger one), -1 for none. */
    private long newestImage()
    {
        long newest = NO_IMAGE;
        for (int i = 0, count = null == marketData ? 0 : marketData.imageCount(); i < count; i++)
        {
            newest = Math.max(newest, marketData.imageAtIndex(i).correlationId());
        }
        return newest;
    }

    /** Starts recovery again: the book is no longer the stream's. */
    private int gap(final String cause)
    {
        lastGapCause = cause;
        live = false;
        ended = false;
        requested = false;
        snapshotUnderWay = false;
        return GAP;
    }

    private void onBookSnapshot(final int sessionId)
    {
        final long messageIndex = bookSnapshot.messageIndex();
        if (0 == messageIndex)
        {
            if (!isNewestImage(sessionId))
            {
                return; // an older md-publisher's answer: the newest one's increments would end its book at once
            }
            book.clear();
            snapshotUnderWay = true;
            snapshotId = bookSnapshot.snapshotId();
            snapshotSequenceNumber = bookSnapshot.sequenceNumber();
            snapshotImage = sessionId;
            nextMessageIndex = 0;
        }
        else if (!snapshotUnderWay || messageIndex != nextMessageIndex || sessionId != snapshotImage ||
            bookSnapshot.snapshotId() != snapshotId || bookSnapshot.sequenceNumber() != snapshotSequenceNumber)
        {
            snapshotUnderWay = false;
            return;
        }
        nextMessageIndex++;
        progressed = true;
        if (0 != bookSnapshot.tradingStateTimestampNs())
        {
            final int length = MessageHeaderEncoder.ENCODED_LENGTH + stockTradingAction
                .wrapAndApplyHeader(scratch, 0, headerEncoder)
                .sequenceNumber(snapshotSequenceNumber)
                .timestampNs(bookSnapshot.tradingStateTimestampNs())
                .tradingState(TradingState.get(bookSnapshot.tradingStateRaw()))
                .encodedLength();
            copySymbol(StockTradingActionEncoder.symbolEncodingOffset());
            scratch.putBytes(BODY_OFFSET + StockTradingActionEncoder.reasonEncodingOffset(), bookSnapshot.buffer(),
                bookSnapshot.offset() + BookSnapshotDecoder.reasonEncodingOffset(),
                BookSnapshotDecoder.reasonEncodingLength());
            apply(length);
        }
        for (final BookSnapshotDecoder.OrdersDecoder order : bookSnapshot.orders())
        {
            final int length = MessageHeaderEncoder.ENCODED_LENGTH + addOrder
                .wrapAndApplyHeader(scratch, 0, headerEncoder)
                .sequenceNumber(snapshotSequenceNumber)
                .timestampNs(order.timestampNs())
                .orderId(order.orderId())
                .side(order.side())
                .quantity(order.quantity())
                .price(order.price())
                .encodedLength();
            copySymbol(AddOrderEncoder.symbolEncodingOffset());
            for (int i = 0; i < AddOrderEncoder.attributionLength(); i++)
            {
                addOrder.attribution(i, order.attribution(i));
            }
            apply(length);
        }
    }

    /** Copies the BookSnapshot's symbol into the scratch message's symbol field at this body offset. */
    private void copySymbol(final int symbolOffset)
    {
        scratch.putBytes(BODY_OFFSET + symbolOffset, bookSnapshot.buffer(),
            bookSnapshot.offset() + BookSnapshotDecoder.symbolEncodingOffset(),
            BookSnapshotDecoder.symbolEncodingLength());
    }

    private void onSnapshotComplete(final int sessionId)
    {
        if (snapshotUnderWay && sessionId == snapshotImage && snapshotComplete.snapshotId() == snapshotId &&
            snapshotComplete.sequenceNumber() == snapshotSequenceNumber &&
            snapshotComplete.messageCount() == nextMessageIndex)
        {
            follow(sessionId, snapshotSequenceNumber);
        }
        else if (0 == snapshotComplete.messageCount() && isNewestImage(sessionId))
        {
            // A snapshot of no book: every book empty, every symbol trading.
            book.clear();
            follow(sessionId, snapshotComplete.sequenceNumber());
        }
        snapshotUnderWay = false;
    }

    private void follow(final int sessionId, final long sequenceNumber)
    {
        live = true;
        ended = false;
        imageSessionId = sessionId;
        imageCorrelationId = correlationId(sessionId);
        nextSequenceNumber = sequenceNumber + 1;
    }

    /** Applies the scratch SBE message to the book through its ITCH form. */
    private void apply(final int length)
    {
        itch.clear();
        if (translator.translate(scratch, 0, length, itch) > 0)
        {
            book.apply(itchBuffer, 0);
        }
    }
}
