package io.bourse.launcher;

import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.bourse.sbe.md.BestBidOfferDecoder;
import io.bourse.sbe.md.BrokenTradeDecoder;
import io.bourse.sbe.md.CrossTradeDecoder;
import io.bourse.sbe.md.EndOfFeedDecoder;
import io.bourse.sbe.md.Feed;
import io.bourse.sbe.md.MessageHeaderDecoder;
import io.bourse.sbe.md.PriceLevelSnapshotDecoder;
import io.bourse.sbe.md.PriceLevelUpdateDecoder;
import io.bourse.sbe.md.SnapshotCompleteDecoder;
import io.bourse.sbe.md.TradeDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;

import java.io.PrintWriter;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Follows the md-publisher's depth (L2), BBO (L1) or trades feed (schemas/market-data-schema.xml, schema version 6; the
 * order feed has the fanout and the MoldUDP64 feed, as ITCH 5.0) as a subscriber that joins at any moment must: it asks
 * for the feed's snapshot, skips the increments until a whole snapshot has come (they are in it), prints the snapshot,
 * then prints each increment whose sequence number is the next; a sequence number past the next one is a gap (printed,
 * and the snapshot asked for again), one already seen a duplicate (skipped, counted). It follows one publisher session
 * (Aeron image) at a time: when that one goes ({@link #onImageGone}; a restarted md-publisher's feeds start again from
 * 1) it takes the next session from its snapshot the same way; messages of another session meanwhile are skipped. A
 * snapshot is asked for again when none has made progress for {@link #REQUEST_TIMEOUT_NS} (the md-publisher not up
 * yet, or a snapshot abandoned). A snapshot is taken whole or not at all: every message of one snapshot id, in order,
 * of one sequence number, then its SnapshotComplete. The end of the feed followed (EndOfFeed, at the md-publisher's
 * stop) is printed with the last sequence number, or as a gap when increments before it are missing.
 *
 * <p>One line per message: {@code #SEQUENCE} then the message, e.g. {@code #7 BBO AAPL 149.9900 x 300 | 150.0100 x
 * 200}, {@code #3 level AAPL B 300 @ 149.9900 (2 orders)}, {@code #2 trade AAPL 100 @ 150.0100 match 33 aggressor
 * B}; prices in dollars with the feed's 4 decimals, quantities in shares. Snapshot lines carry the sequence number
 * the snapshot stands at. Only the chosen symbols are printed; every message counts for the sequence. Messages that
 * are not of the feed, or too short, are skipped and counted. Not thread safe.
 */
final class FeedFollower implements FragmentHandler
{
    /** Asks the md-publisher for a snapshot of the feed. */
    @FunctionalInterface
    interface SnapshotRequester
    {
        /**
         * @param feed the feed.
         * @return true when the request was sent.
         */
        boolean request(Feed feed);
    }

    /** A snapshot is asked for again after this long without progress: 1 s. */
    static final long REQUEST_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(1);

    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final BestBidOfferDecoder bestBidOffer = new BestBidOfferDecoder();
    private final PriceLevelUpdateDecoder priceLevelUpdate = new PriceLevelUpdateDecoder();
    private final PriceLevelSnapshotDecoder priceLevelSnapshot = new PriceLevelSnapshotDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final BrokenTradeDecoder brokenTrade = new BrokenTradeDecoder();
    private final CrossTradeDecoder crossTrade = new CrossTradeDecoder();
    private final SnapshotCompleteDecoder snapshotComplete = new SnapshotCompleteDecoder();
    private final EndOfFeedDecoder endOfFeed = new EndOfFeedDecoder();
    private final List<String> snapshotLines = new ArrayList<>();
    private final Feed feed;
    private final Predicate<String> symbols;
    private final PrintWriter out;
    private final SnapshotRequester requester;
    private final NanoClock clock;
    private boolean live;
    private boolean requested;
    private long progressNs;
    private boolean sessionKnown;
    private int sessionId;
    private long nextSequenceNumber;
    private long snapshotId;
    private long snapshotSequenceNumber;
    private int snapshotMessages;
    private long incrementsPrinted;
    private long gaps;
    private long duplicates;
    private long skipped;

    /**
     * @param feed      the feed followed: DEPTH, BBO or TRADES.
     * @param symbols   the symbols printed; empty for every one.
     * @param out       where the lines go.
     * @param requester sends SnapshotRequest for the feed.
     * @param clock     times the requests.
     */
    FeedFollower(
        final Feed feed, final Set<String> symbols, final PrintWriter out, final SnapshotRequester requester,
        final NanoClock clock)
    {
        this.feed = feed;
        this.symbols = symbols.isEmpty() ? (symbol) -> true : symbols::contains;
        this.out = out;
        this.requester = requester;
        this.clock = clock;
    }

    /**
     * Asks for the snapshot when one is due: not asked for yet (at the start, after a gap, for a new session), or
     * asked for {@link #REQUEST_TIMEOUT_NS} ago with no snapshot message taken since. Call it only when the answer can
     * be heard (the feed's stream and the request stream connected).
     *
     * @return true when a request was sent.
     */
    boolean requestSnapshotIfDue()
    {
        if (live || (requested && clock.nanoTime() - progressNs < REQUEST_TIMEOUT_NS))
        {
            return false;
        }
        requested = requester.request(feed);
        progressNs = clock.nanoTime();
        return requested;
    }

    /** @return whether a publisher session is followed; {@link #followedSession()} then names it. */
    boolean hasSession()
    {
        return sessionKnown;
    }

    /** @return the Aeron session id of the publisher followed, when {@link #hasSession()}. */
    int followedSession()
    {
        return sessionId;
    }

    /**
     * The image of a publisher session went away: when it is the one followed, the next session is taken from its
     * snapshot.
     *
     * @param publisherSessionId the Aeron session id of the image gone.
     */
    void onImageGone(final int publisherSessionId)
    {
        if (sessionKnown && publisherSessionId == sessionId)
        {
            out.println("publisher session " + sessionId + " gone: waiting for the next one's snapshot");
            sessionKnown = false;
            recover();
        }
    }

    /** @return whether the follower holds the feed's state and prints its increments. */
    boolean isLive()
    {
        return live;
    }

    /** @return increments printed since the start. */
    long incrementsPrinted()
    {
        return incrementsPrinted;
    }

    /** @return gaps seen: increments past the next sequence number. */
    long gaps()
    {
        return gaps;
    }

    /** @return increments skipped because their sequence number was seen before. */
    long duplicates()
    {
        return duplicates;
    }

    /** @return messages skipped: of another publisher session than the one followed, not of the feed, or too short. */
    long skipped()
    {
        return skipped;
    }

    @Override
    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header aeronHeader)
    {
        onMessage(aeronHeader.sessionId(), buffer, offset, length);
    }

    /**
     * @param publisherSessionId the Aeron session of the publication the message came on.
     * @param buffer             holds the message.
     * @param offset             of its SBE message header.
     * @param length             of the message, header included, in bytes.
     */
    void onMessage(final int publisherSessionId, final DirectBuffer buffer, final int offset, final int length)
    {
        if (!sessionKnown)
        {
            sessionKnown = true;
            sessionId = publisherSessionId;
        }
        if (publisherSessionId != sessionId || length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            skipped++;
            return;
        }
        header.wrap(buffer, offset);
        if (header.schemaId() != MessageHeaderDecoder.SCHEMA_ID ||
            length < MessageHeaderDecoder.ENCODED_LENGTH + header.blockLength())
        {
            skipped++;
            return;
        }
        final int templateId = header.templateId();
        if (PriceLevelSnapshotDecoder.TEMPLATE_ID == templateId && Feed.TRADES != feed)
        {
            onPriceLevelSnapshot(buffer, offset);
        }
        else if (SnapshotCompleteDecoder.TEMPLATE_ID == templateId)
        {
            onSnapshotComplete(buffer, offset);
        }
        else if (EndOfFeedDecoder.TEMPLATE_ID == templateId)
        {
            onEndOfFeed(buffer, offset);
        }
        else if (isIncrementOfFeed(templateId) && header.blockLength() >= Long.BYTES)
        {
            onIncrement(buffer, offset);
        }
        else
        {
            skipped++;
        }
    }

    private boolean isIncrementOfFeed(final int templateId)
    {
        return switch (feed)
        {
            case DEPTH -> PriceLevelUpdateDecoder.TEMPLATE_ID == templateId;
            case BBO -> BestBidOfferDecoder.TEMPLATE_ID == templateId;
            case TRADES -> TradeDecoder.TEMPLATE_ID == templateId || BrokenTradeDecoder.TEMPLATE_ID == templateId ||
                CrossTradeDecoder.TEMPLATE_ID == templateId;
            default -> false;
        };
    }

    private void recover()
    {
        live = false;
        requested = false;
        snapshotLines.clear();
        snapshotMessages = 0;
    }

    private void onPriceLevelSnapshot(final DirectBuffer buffer, final int offset)
    {
        priceLevelSnapshot.wrapAndApplyHeader(buffer, offset, header);
        if (priceLevelSnapshot.feedRaw() == feed.value() && startSnapshotMessage(
            priceLevelSnapshot.snapshotId(), priceLevelSnapshot.messageIndex(), priceLevelSnapshot.sequenceNumber()))
        {
            final String symbol = priceLevelSnapshot.symbol().trim();
            if (symbols.test(symbol))
            {
                for (final PriceLevelSnapshotDecoder.LevelsDecoder level : priceLevelSnapshot.levels())
                {
                    snapshotLines.add("snapshot " + symbol + " " + (char)level.sideRaw() + " " + level.quantity() +
                        " @ " + dollars(level.price()) + " (" + level.orderCount() + " orders)");
                }
            }
        }
    }

    /**
     * @return true when the message belongs to the snapshot being taken: the first of a snapshot starts it (a snapshot
     * abandoned half way is dropped), the next of the same snapshot and sequence number continues it; while live, none
     * does.
     */
    private boolean startSnapshotMessage(final long id, final long messageIndex, final long sequenceNumber)
    {
        if (live)
        {
            return false;
        }
        if (0 == messageIndex)
        {
            snapshotLines.clear();
            snapshotId = id;
            snapshotSequenceNumber = sequenceNumber;
            snapshotMessages = 0;
        }
        else if (id != snapshotId || messageIndex != snapshotMessages || sequenceNumber != snapshotSequenceNumber)
        {
            return false;
        }
        snapshotMessages++;
        progressNs = clock.nanoTime();
        return true;
    }

    private void onSnapshotComplete(final DirectBuffer buffer, final int offset)
    {
        snapshotComplete.wrapAndApplyHeader(buffer, offset, header);
        final long count = snapshotComplete.messageCount();
        final boolean whole = 0 == count ? 0 == snapshotMessages : snapshotComplete.snapshotId() == snapshotId &&
            count == snapshotMessages && snapshotComplete.sequenceNumber() == snapshotSequenceNumber;
        if (live || !whole)
        {
            return;
        }
        for (final String line : snapshotLines)
        {
            out.println("#" + snapshotComplete.sequenceNumber() + " " + line);
        }
        out.println("#" + snapshotComplete.sequenceNumber() + " snapshot complete: " + count +
            " messages; live from #" + (snapshotComplete.sequenceNumber() + 1));
        snapshotLines.clear();
        live = true;
        nextSequenceNumber = snapshotComplete.sequenceNumber() + 1;
    }

    /** Prints the end of the feed the follower is live on, where it stands: a gap when increments are missing. */
    private void onEndOfFeed(final DirectBuffer buffer, final int offset)
    {
        if (!live)
        {
            return; // ignored while recovering, as increments are
        }
        endOfFeed.wrapAndApplyHeader(buffer, offset, header);
        final long last = endOfFeed.sequenceNumber();
        if (last != nextSequenceNumber - 1)
        {
            gaps++;
            out.println("gap: the feed ended after #" + last + ", the last one here is #" + (nextSequenceNumber - 1));
        }
        else
        {
            out.println("#" + last + " end of feed: the md-publisher stopped; the next one's feed is taken from its " +
                "snapshot");
        }
    }

    private void onIncrement(final DirectBuffer buffer, final int offset)
    {
        if (!live)
        {
            return;
        }
        // Every increment of every version starts with its int64 sequence number.
        final long sequenceNumber =
            buffer.getLong(offset + MessageHeaderDecoder.ENCODED_LENGTH, ByteOrder.LITTLE_ENDIAN);
        if (sequenceNumber < nextSequenceNumber)
        {
            duplicates++;
            return;
        }
        if (sequenceNumber > nextSequenceNumber)
        {
            gaps++;
            out.println("gap: #" + nextSequenceNumber + " to #" + (sequenceNumber - 1) +
                " missing; asking for the snapshot");
            recover();
            return;
        }
        nextSequenceNumber++;
        final String line = describe(buffer, offset);
        if (null != line)
        {
            out.println("#" + sequenceNumber + " " + line);
            incrementsPrinted++;
        }
    }

    /** @return the increment as printed, or null when its symbol is not shown. */
    private String describe(final DirectBuffer buffer, final int offset)
    {
        return switch (header.templateId())
        {
            case BestBidOfferDecoder.TEMPLATE_ID ->
            {
                bestBidOffer.wrapAndApplyHeader(buffer, offset, header);
                final String symbol = bestBidOffer.symbol().trim();
                yield symbols.test(symbol) ? "BBO " + symbol + " " +
                    dollars(bestBidOffer.bidPrice()) + " x " + bestBidOffer.bidQuantity() + " | " +
                    dollars(bestBidOffer.askPrice()) + " x " + bestBidOffer.askQuantity() : null;
            }
            case PriceLevelUpdateDecoder.TEMPLATE_ID ->
            {
                priceLevelUpdate.wrapAndApplyHeader(buffer, offset, header);
                final String symbol = priceLevelUpdate.symbol().trim();
                yield symbols.test(symbol) ? "level " + symbol + " " + (char)priceLevelUpdate.sideRaw() + " " +
                    priceLevelUpdate.quantity() + " @ " + dollars(priceLevelUpdate.price()) + " (" +
                    priceLevelUpdate.orderCount() + " orders)" : null;
            }
            case TradeDecoder.TEMPLATE_ID ->
            {
                trade.wrapAndApplyHeader(buffer, offset, header);
                final String symbol = trade.symbol().trim();
                yield symbols.test(symbol) ? "trade " + symbol + " " + trade.quantity() + " @ " +
                    dollars(trade.price()) + " match " + trade.matchNumber() + " aggressor " +
                    (char)trade.aggressorSideRaw() : null;
            }
            case BrokenTradeDecoder.TEMPLATE_ID ->
            {
                brokenTrade.wrapAndApplyHeader(buffer, offset, header);
                final String symbol = brokenTrade.symbol().trim();
                yield symbols.test(symbol) ? "broken trade " + symbol + " match " + brokenTrade.matchNumber() : null;
            }
            case CrossTradeDecoder.TEMPLATE_ID ->
            {
                crossTrade.wrapAndApplyHeader(buffer, offset, header);
                final String symbol = crossTrade.symbol().trim();
                yield symbols.test(symbol) ? "cross trade " + symbol + " " + crossTrade.shares() + " @ " +
                    dollars(crossTrade.crossPrice()) + " match " + crossTrade.matchNumber() : null;
            }
            default -> throw new IllegalStateException("not an increment of the " + feed + " feed: template " +
                header.templateId());
        };
    }

    /** @return a price in 1/10000 dollars as dollars with 4 decimals. */
    private static String dollars(final long price)
    {
        return (price < 0 ? "-" : "") + Math.abs(price) / 10_000 + "." +
            String.format(Locale.ROOT, "%04d", Math.abs(price) % 10_000);
    }
}
