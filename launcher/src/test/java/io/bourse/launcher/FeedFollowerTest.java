package io.bourse.launcher;

import io.bourse.sbe.md.BestBidOfferEncoder;
import io.bourse.sbe.md.Feed;
import io.bourse.sbe.md.MessageHeaderEncoder;
import io.bourse.sbe.md.PriceLevelSnapshotEncoder;
import io.bourse.sbe.md.Side;
import io.bourse.sbe.md.SnapshotCompleteEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link FeedFollower} fed BBO feed messages by hand: the snapshot, increments in sequence, a duplicate, a gap. */
class FeedFollowerTest
{
    private static final int SESSION = 7;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final StringWriter out = new StringWriter();
    private final List<Feed> requests = new ArrayList<>();
    private final FeedFollower follower = new FeedFollower(
        Feed.BBO, Set.of("AAPL"), new PrintWriter(out, true), (feed) -> requests.add(feed));

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
    void shouldTakeOnlyAWholeSnapshotAndRecoverANewPublisherSession()
    {
        follower.requestSnapshotIfDue();
        // Message 1 of a snapshot whose message 0 was missed, then a whole one.
        levelSnapshot(SESSION, 2, 1, 1, "AAPL");
        complete(SESSION, 2, 1, 2);
        assertThat(follower.isLive()).isFalse();
        follower.requestAgain();
        assertThat(follower.requestSnapshotIfDue()).isTrue();
        levelSnapshot(SESSION, 3, 2, 0, "AAPL");
        complete(SESSION, 3, 2, 1);
        assertThat(follower.isLive()).isTrue();

        // A restarted md-publisher: its feed starts again from 1.
        bbo(SESSION + 1, 1, "AAPL", 500);
        assertThat(follower.isLive()).isFalse();
        assertThat(follower.requestSnapshotIfDue()).isTrue();
        complete(SESSION + 1, 1, 3, 0);
        bbo(SESSION + 1, 2, "AAPL", 600);

        assertThat(out.toString().lines()).containsExactly(
            "#3 snapshot AAPL B 100 @ 150.0000 (1 orders)",
            "#3 snapshot complete: 1 messages; live from #4",
            "new publisher session 8: asking for the snapshot",
            "#1 snapshot complete: 0 messages; live from #2",
            "#2 BBO AAPL 150.0000 x 600 | 0.0000 x 0");
        assertThat(requests).hasSize(3);
    }

    private void bbo(final int session, final long sequenceNumber, final String symbol, final long bidQuantity)
    {
        new BestBidOfferEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(sequenceNumber)
            .timestampNs(1)
            .symbol(symbol)
            .bidPrice(1_500_000)
            .bidQuantity(bidQuantity)
            .askPrice(0)
            .askQuantity(0);
        follower.onMessage(session, buffer, 0);
    }

    private void levelSnapshot(
        final int session, final long sequenceNumber, final long snapshotId, final int messageIndex,
        final String symbol)
    {
        new PriceLevelSnapshotEncoder().wrapAndApplyHeader(buffer, 0, header)
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
        follower.onMessage(session, buffer, 0);
    }

    private void complete(final int session, final long sequenceNumber, final long snapshotId, final int messageCount)
    {
        new SnapshotCompleteEncoder().wrapAndApplyHeader(buffer, 0, header)
            .sequenceNumber(sequenceNumber)
            .timestampNs(1)
            .snapshotId(snapshotId)
            .messageCount(messageCount);
        follower.onMessage(session, buffer, 0);
    }
}
