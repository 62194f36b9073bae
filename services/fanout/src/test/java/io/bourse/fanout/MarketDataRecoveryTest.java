package io.bourse.fanout;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.bourse.common.aeron.EmbeddedAeron;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.itch.ItchReferenceData;
import io.bourse.itch.ItchTranslator;
import io.bourse.itch.MarketDataEncoder;
import io.bourse.sbe.md.MessageHeaderDecoder;
import io.bourse.sbe.md.Side;
import io.bourse.sbe.md.SnapshotRequestDecoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Snapshot requests of a recovering fanout, and the md-publisher's image going and coming, on a real embedded media
 * driver with the smallest IPC terms.
 */
@Timeout(20)
class MarketDataRecoveryTest
{
    private static final int TERM_LENGTH = 64 * 1024;
    private static final int MARKET_DATA_STREAM_ID = 3000;
    private static final int SNAPSHOT_REQUEST_STREAM_ID = 3001;
    private static final SymbolDirectory SYMBOLS = SymbolDirectory.parse("AAPL@0");

    @RegisterExtension
    private final EmbeddedAeron embedded = new EmbeddedAeron("md-recovery", TERM_LENGTH);
    private long nowNs;

    /**
     * A request unanswered for {@link MarketDataRecovery#REQUEST_TIMEOUT_NS} is sent again: each one over 3 terms of
     * the request stream is sent when due, the ones that reach a term's end included, each read before the next.
     */
    @Test
    void shouldSendEveryDueSnapshotRequestAcrossTermRotations()
    {
        final Aeron aeron = embedded.aeron();
        final Subscription marketData = aeron.addSubscription("aeron:ipc", MARKET_DATA_STREAM_ID);
        final Publication publisher = aeron.addPublication("aeron:ipc", MARKET_DATA_STREAM_ID);
        final Subscription requests = aeron.addSubscription("aeron:ipc", SNAPSHOT_REQUEST_STREAM_ID);
        final Publication snapshotRequests = aeron.addPublication("aeron:ipc", SNAPSHOT_REQUEST_STREAM_ID);
        while (!marketData.isConnected() || !publisher.isConnected() || !snapshotRequests.isConnected())
        {
            Thread.yield();
        }
        final long[] requestIds = {0};
        final MarketDataRecovery recovery = new MarketDataRecovery(
            marketData, snapshotRequests, () -> ++requestIds[0], new ItchTranslator(SYMBOLS),
            new ItchBook(new ItchReferenceData(SYMBOLS), 0), () -> nowNs);
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final SnapshotRequestDecoder request = new SnapshotRequestDecoder();
        final long[] lastRequestId = {0};

        while (snapshotRequests.position() < 3L * TERM_LENGTH)
        {
            while (snapshotRequests.availableWindow() < 1024)
            {
                Thread.yield();
            }
            nowNs += MarketDataRecovery.REQUEST_TIMEOUT_NS;
            assertThat(recovery.doWork()).as("request %d at %d", requestIds[0] + 1, snapshotRequests.position())
                .isOne();
            while (0 == requests.poll((buffer, offset, length, frameHeader) -> lastRequestId[0] =
                request.wrapAndApplyHeader(buffer, offset, header).requestId(), 1))
            {
                Thread.onSpinWait(); // at a term's end the first poll only steps over its padding
            }
            assertThat(lastRequestId[0]).isEqualTo(requestIds[0]);
        }
    }

    /**
     * A publisher that ends its feed (EndOfFeed, at its stop) may go: the book stays in step and final, no gap, and an
     * image there before the end (a second publisher) is no next one. A next publisher's image then starts recovery,
     * as the image of a publisher that goes without ending its feed (a crash) does at once.
     */
    @Test
    void shouldStayInStepWhenAPublisherThatEndedItsFeedGoesAndRecoverWhenTheNextOneComes()
    {
        final Aeron aeron = embedded.aeron();
        final Subscription marketData = aeron.addSubscription("aeron:ipc", MARKET_DATA_STREAM_ID);
        final MarketDataRecovery recovery = recovery(aeron, marketData);
        final MarketDataEncoder encoder = new MarketDataEncoder();

        final Publication stopped = follow(aeron, marketData, recovery, encoder);
        final Publication second = aeron.addExclusivePublication("aeron:ipc", MARKET_DATA_STREAM_ID);
        awaitImages(marketData, 2);
        assertThat(recovery.onMessage(encoder.buffer, 0, encoder.endOfFeed(), stopped.sessionId()))
            .isEqualTo(MarketDataRecovery.ENDED);
        assertThat(recovery.doWork()).isZero();
        assertThat(recovery.doWork()).as("an image there at the end").isZero();
        stopped.close();
        second.close();
        awaitImages(marketData, 0);
        assertThat(recovery.doWork()).isZero();
        assertThat(recovery.isLive()).isTrue();

        final Publication next = aeron.addExclusivePublication("aeron:ipc", MARKET_DATA_STREAM_ID);
        awaitImages(marketData, 1);
        assertThat(recovery.doWork()).isEqualTo(MarketDataRecovery.GAP);
        assertThat(recovery.isLive()).isFalse();
        assertThat(recovery.lastGapCause())
            .isEqualTo("a next md-publisher's stream (Aeron image) came after the last one ended its feed");
        next.close();
        awaitImages(marketData, 0);

        final Publication crashed = follow(aeron, marketData, recovery, new MarketDataEncoder());
        crashed.close();
        awaitImages(marketData, 0);
        assertThat(recovery.doWork()).isEqualTo(MarketDataRecovery.GAP);
        assertThat(recovery.lastGapCause()).isEqualTo(
            "the md-publisher's stream (Aeron image) has gone without ending its feed, after sequence number 1");
    }

    /**
     * A newer publisher's increment while the followed image is still there (its md-publisher crashed, and the media
     * driver has not timed its client out yet: about 10 s in which the books stood still and new logins got them)
     * starts recovery at once. Then a snapshot of the older image, book or no book, is not taken, the newer one's is,
     * and the older image's increments are ignored, so that two md-publishers running at once cannot take turns.
     */
    @Test
    void shouldRecoverFromANewerPublisherWhoseIncrementComesWhileTheFollowedImageIsStillThere()
    {
        final Aeron aeron = embedded.aeron();
        final Subscription marketData = aeron.addSubscription("aeron:ipc", MARKET_DATA_STREAM_ID);
        final MarketDataRecovery recovery = recovery(aeron, marketData);
        final MarketDataEncoder older = new MarketDataEncoder();
        final MarketDataEncoder newer = new MarketDataEncoder();
        final Publication crashed = follow(aeron, marketData, recovery, older);
        final Publication next = aeron.addExclusivePublication("aeron:ipc", MARKET_DATA_STREAM_ID);
        awaitImages(marketData, 2);

        assertThat(recovery.onMessage(older.buffer, 0, older.addOrder(2_000, "AAPL", 2, Side.BUY, 100, 1_000_000),
            crashed.sessionId())).isEqualTo(MarketDataRecovery.APPLY);
        assertThat(recovery.onMessage(newer.buffer, 0, newer.addOrder(3_000, "AAPL", 3, Side.BUY, 100, 1_000_000),
            next.sessionId())).isEqualTo(MarketDataRecovery.GAP);
        assertThat(recovery.lastGapCause()).startsWith("a newer md-publisher's stream (Aeron image) sent an increment");
        assertThat(recovery.onMessage(older.buffer, 0, older.snapshotComplete(1), crashed.sessionId()))
            .as("the older image's snapshot of no book").isEqualTo(MarketDataRecovery.TAKEN);
        assertThat(recovery.onMessage(older.buffer, 0, older.bookSnapshot(2, 0, "AAPL",
            new long[]{1, 'B', 100, 1_000_000, 1_000}), crashed.sessionId())).isEqualTo(MarketDataRecovery.TAKEN);
        assertThat(recovery.onMessage(older.buffer, 0, older.snapshotComplete(2, 1), crashed.sessionId()))
            .as("the older image's snapshot of a book").isEqualTo(MarketDataRecovery.TAKEN);
        assertThat(recovery.isLive()).isFalse();
        assertThat(recovery.onMessage(newer.buffer, 0, newer.snapshotComplete(3), next.sessionId()))
            .isEqualTo(MarketDataRecovery.RECOVERED);
        assertThat(recovery.onMessage(older.buffer, 0, older.addOrder(4_000, "AAPL", 4, Side.BUY, 100, 1_000_000),
            crashed.sessionId())).isEqualTo(MarketDataRecovery.OTHER_PUBLISHER);
        assertThat(recovery.onMessage(newer.buffer, 0, newer.addOrder(5_000, "AAPL", 5, Side.BUY, 100, 1_000_000),
            next.sessionId())).isEqualTo(MarketDataRecovery.APPLY);
        assertThat(recovery.isLive()).isTrue();
        crashed.close();
        next.close();
        awaitImages(marketData, 0);
    }

    /** @return a recovery of the market-data subscription, requesting on its own stream, on the test's clock. */
    private MarketDataRecovery recovery(final Aeron aeron, final Subscription marketData)
    {
        return new MarketDataRecovery(
            marketData, aeron.addPublication("aeron:ipc", SNAPSHOT_REQUEST_STREAM_ID), () -> 1,
            new ItchTranslator(SYMBOLS), new ItchBook(new ItchReferenceData(SYMBOLS), 0), () -> nowNs);
    }

    /** @return a new publisher's image, which the recovery follows from a snapshot of no book and one increment. */
    private static Publication follow(
        final Aeron aeron, final Subscription marketData, final MarketDataRecovery recovery,
        final MarketDataEncoder encoder)
    {
        final Publication publisher = aeron.addExclusivePublication("aeron:ipc", MARKET_DATA_STREAM_ID);
        awaitImages(marketData, 1);
        final int sessionId = publisher.sessionId();
        assertThat(recovery.onMessage(encoder.buffer, 0, encoder.snapshotComplete(1), sessionId))
            .isEqualTo(MarketDataRecovery.RECOVERED);
        assertThat(recovery.onMessage(encoder.buffer, 0,
            encoder.addOrder(1_000, "AAPL", 1, Side.BUY, 100, 1_000_000), sessionId))
            .isEqualTo(MarketDataRecovery.APPLY);
        assertThat(recovery.doWork()).isZero();
        return publisher;
    }

    private static void awaitImages(final Subscription subscription, final int count)
    {
        while (subscription.imageCount() != count)
        {
            Thread.yield();
        }
    }
}
