package io.bourse.launcher;

import io.bourse.sbe.md.BestBidOfferEncoder;
import io.bourse.sbe.md.BooleanType;
import io.bourse.sbe.md.BrokenTradeEncoder;
import io.bourse.sbe.md.CrossTradeEncoder;
import io.bourse.sbe.md.CrossType;
import io.bourse.sbe.md.EndOfFeedEncoder;
import io.bourse.sbe.md.Feed;
import io.bourse.sbe.md.MessageHeaderEncoder;
import io.bourse.sbe.md.PriceLevelSnapshotEncoder;
import io.bourse.sbe.md.Side;
import io.bourse.sbe.md.SnapshotCompleteEncoder;
import io.bourse.sbe.md.TradeEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link FeedFollower} fed feed messages by hand: the snapshot, increments in sequence, a duplicate, a gap, partial
 * snapshots, the publisher session gone, the trades feed.
 */
class FeedFollowerTest
{
    private static final int SESSION = 7;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final StringWriter out = new StringWriter();
    private final List<Feed> requests = new ArrayList<>();
    private long nowNs;
    private FeedFollower follower = new FeedFollower(
        Feed.BBO, Set.of("AAPL"), new PrintWriter(out, true), (feed) -> requests.add(feed), () -> nowNs);

    @Test
    void shouldPrintIncrementsAfterTheSnapshotSkipADuplicateAndRecoverFromAGap()
    {
        assertThat(follower.requestSnapshotIfDue()).isTrue();
        assertThat(follower.requestSnapshotIfDue()).isFalse();
        bbo(SESSION, 4, "AAPL", 100);
        levelSnapshot(SESSION, 4, 1, 0, "AAPL");
        levelSnapshot(SESSION, 4, 1, 1, "MSFT");
        complete(SESSION, 4, 1, 2);
        bbo(SESSION, 5, "AAPL", 200);
        bbo(SESSION, 6, "MSFT", 300);
        bbo(SESSION, 6, "MSFT", 300);
        bbo(SESSION, 9, "AAPL", 400);

        assertThat(out.toString().lines()).containsExactly(
            "#4 snapshot AAPL B 100 @ 150.0000 (1 orders)",
            "#4 snapshot complete: 2 messages; live from #5",
            "#5 BBO AAPL 150.0000 x 200 | 0.0000 x 0",
            "gap: #7 to #8 missing; asking for the snapshot");
        assertThat(follower.incrementsPrinted()).isEqualTo(1);
        assertThat(follower.duplicates()).isEqualTo(1);
        assertThat(follower.gaps()).isEqualTo(1);
        assertThat(follower.isLive()).isFalse();
        assertThat(follower.requestSnapshotIfDue()).isTrue();
        assertThat(requests).containsExactly(Feed.BBO, Feed.BBO);
    }

    @Test
    void shouldTakeOnlyAWholeSnapshotAndTheNextSessionWhenTheFollowedOneGoes()
    {
        assertThat(follower.requestSnapshotIfDue()).isTrue();
        // Message 1 of a snapshot whose message 0 was missed; then a snapshot whose messages disagree on the sequence.
        levelSnapshot(SESSION, 2, 1, 1, "AAPL");
        complete(SESSION, 2, 1, 2);
        levelSnapshot(SESSION, 2, 2, 0, "AAPL");
        levelSnapshot(SESSION, 3, 2, 1, "MSFT");
        complete(SESSION, 3, 2, 2);
        // A snapshot of no message while one is under way is not whole either.
        complete(SESSION, 2, 2, 0);
        assertThat(follower.isLive()).isFalse();
        // Asked again only a second after the last snapshot message taken.
        nowNs += FeedFollower.REQUEST_TIMEOUT_NS - 1;
        assertThat(follower.requestSnapshotIfDue()).isFalse();
        nowNs += FeedFollower.REQUEST_TIMEOUT_NS;
        assertThat(follower.requestSnapshotIfDue()).isTrue();
        levelSnapshot(SESSION, 3, 3, 0, "AAPL");
        complete(SESSION, 3, 3, 1);
        assertThat(follower.isLive()).isTrue();

        // Another session while one is followed (an image lingering, a second publisher) is skipped.
        bbo(SESSION + 1, 1, "AAPL", 500);
        assertThat(follower.isLive()).isTrue();
        // The followed session goes (a restarted md-publisher): the next one's feed starts again from 1.
        follower.onImageGone(SESSION + 1);
        assertThat(follower.isLive()).isTrue();
        follower.onImageGone(SESSION);
        assertThat(follower.isLive()).isFalse();
        assertThat(follower.requestSnapshotIfDue()).isTrue();
        complete(SESSION + 1, 1, 4, 0);
        bbo(SESSION + 1, 2, "AAPL", 600);

        assertThat(out.toString().lines()).containsExactly(
            "#3 snapshot AAPL B 100 @ 150.0000 (1 orders)",
            "#3 snapshot complete: 1 messages; live from #4",
            "publisher session 7 gone: waiting for the next one's snapshot",
            "#1 snapshot complete: 0 messages; live from #2",
            "#2 BBO AAPL 150.0000 x 600 | 0.0000 x 0");
        assertThat(requests).hasSize(3);
        assertThat(follower.skipped()).isEqualTo(1);
    }

    /** The md-publisher's stop: EndOfFeed after the last increment is printed; one after a missed one is a gap. */
    @Test
    void shouldPrintTheEndOfTheFeedOrTheGapBeforeIt()
    {
        complete(SESSION, 4, 1, 0);
        bbo(SESSION, 5, "AAPL", 200);
        endOfFeed(SESSION, 5);
        follower.onImageGone(SESSION);
        complete(SESSION + 1, 0, 2, 0);
        endOfFeed(SESSION + 1, 1);

        assertThat(out.toString().lines()).containsExactly(
            "#4 snapshot complete: 0 messages; live from #5",
            "#5 BBO AAPL 150.0000 x 200 | 0.0000 x 0",
            "#5 end of feed: the md-publisher stopped; the next one's feed is taken from its snapshot",
            "publisher session 7 gone: waiting for the next one's snapshot",
            "#0 snapshot complete: 0 messages; live from #1",
            "gap: the feed ended after #1, the last one here is #0");
        assertThat(follower.gaps()).isEqualTo(1);
        assertThat(follower.skipped()).isZero();
    }

    @Test
    void shouldPrintTheTradesFeedAndSkipWhatIsNotOfIt()
    {
        follower = new FeedFollower(Feed.TRADES, Set.of(), new PrintWriter(out, true), requests::add, () -> nowNs);
        follower.requestSnapshotIfDue();
        complete(SESSION, 5, 1, 0);
        new TradeEncoder().wrapAndApplyHeader(buffer, 0, header).sequenceNumber(6).timestampNs(1).symbol("AAPL")
            .matchNumber(33).aggressorSide(Side.SELL).quantity(100).price(1_500_100).makerDisplayed(BooleanType.TRUE);
        follower.onMessage(SESSION, buffer, 0, header.encodedLength() + TradeEncoder.BLOCK_LENGTH);
        new BrokenTradeEncoder().wrapAndApplyHeader(buffer, 0, header).sequenceNumber(7).timestampNs(2)
            .symbol("AAPL").matchNumber(33);
        follower.onMessage(SESSION, buffer, 0, header.encodedLength() + BrokenTradeEncoder.BLOCK_LENGTH);
        new CrossTradeEncoder().wrapAndApplyHeader(buffer, 0, header).sequenceNumber(8).timestampNs(3).symbol("MSFT")
            .shares(400).crossPrice(4_000_000).matchNumber(36).crossType(CrossType.CLOSING);
        // Cut short: skipped, then whole.
        follower.onMessage(SESSION, buffer, 0, header.encodedLength() + 8);
        follower.onMessage(SESSION, buffer, 0, header.encodedLength() + CrossTradeEncoder.BLOCK_LENGTH);
        // Not of the trades feed.
        bbo(SESSION, 9, "AAPL", 100);

        assertThat(out.toString().lines()).containsExactly(
            "#5 snapshot complete: 0 messages; live from #6",
            "#6 trade AAPL 100 @ 150.0100 match 33 aggressor S",
            "#7 broken trade AAPL match 33",
            "#8 cross trade MSFT 400 @ 400.0000 match 36");
        assertThat(follower.incrementsPrinted()).isEqualTo(3);
        assertThat(follower.skipped()).isEqualTo(2);
        assertThat(follower.gaps()).isZero();
    }

    private void bbo(final int session, final long sequenceNumber, final String symbol, final long bidQuantity)
    {
        final int length = new BestBidOfferEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(sequenceNumber)
            .timestampNs(1)
            .symbol(symbol)
            .bidPrice(1_500_000)
            .bidQuantity(bidQuantity)
            .askPrice(0)
            .askQuantity(0)
            .encodedLength();
        follower.onMessage(session, buffer, 0, header.encodedLength() + length);
    }

    private void levelSnapshot(
        final int session, final long sequenceNumber, final long snapshotId, final int messageIndex,
        final String symbol)
    {
        final PriceLevelSnapshotEncoder snapshot = new PriceLevelSnapshotEncoder();
        snapshot.wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(sequenceNumber)
            .timestampNs(1)
            .symbol(symbol)
            .snapshotId(snapshotId)
            .messageIndex(messageIndex)
            .feed(Feed.BBO)
            .levelsCount(1).next()
            .side(Side.BUY)
            .price(1_500_000)
            .quantity(100)
            .orderCount(1);
        follower.onMessage(session, buffer, 0, header.encodedLength() + snapshot.encodedLength());
    }

    private void endOfFeed(final int session, final long lastSequenceNumber)
    {
        final int length = new EndOfFeedEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(lastSequenceNumber)
            .timestampNs(1)
            .encodedLength();
        follower.onMessage(session, buffer, 0, header.encodedLength() + length);
    }

    private void complete(final int session, final long sequenceNumber, final long snapshotId, final int messageCount)
    {
        final int length = new SnapshotCompleteEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(sequenceNumber)
            .timestampNs(1)
            .snapshotId(snapshotId)
            .messageCount(messageCount)
            .encodedLength();
        follower.onMessage(session, buffer, 0, header.encodedLength() + length);
    }
}
