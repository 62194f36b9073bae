package io.bourse.simulator;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.common.time.MidnightNanoClock;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The trade analytics of a MoldUDP64 market-data session that joins the group again, fed hand-built ITCH 5.0 messages
 * as nassau's client delivers them, from Sequence Number 1 at each join.
 */
class MoldReplayTest
{
    private static final long T = 34_200_000_000_000L;
    private static final long SECOND = 1_000_000_000L;
    /** More trades than the analytics keep by Match Number. */
    private static final int TRADES = RecentTrades.CAPACITY + 4_464;

    private final SimulatorCounters counters = new SimulatorCounters();
    private final FeedAnalytics analytics = new FeedAnalytics(
        1, 60 * SECOND, 60, counters, new MidnightNanoClock(() -> 20_000 * MidnightNanoClock.NANOS_PER_DAY + T));
    private final MoldReplay replay = new MoldReplay(analytics, counters, true);
    private final MarketDataAdapter adapter =
        new MarketDataAdapter("MoldUDP64 session", SymbolDirectory.parse("AAPL"), counters, new OrderBooks(1, 16, replay),
            replay, FeedObserver.NONE);

    @Test
    void shouldCountEveryTradeOfTheSessionOnceWhenAJoinReadsItAgainFromSequenceNumberOne() throws IOException
    {
        readSession(T, TRADES);
        brokenTrade(TRADES - 3);
        assertThat(analytics.volume(1)).isEqualTo(100L * (TRADES - 1));

        readSession(T, TRADES);
        brokenTrade(TRADES - 3);
        assertThat(analytics.volume(1)).as("nothing heard again counted again").isEqualTo(100L * (TRADES - 1));
        assertThat(analytics.trades(1)).isEqualTo(TRADES - 1);
        assertThat(counters.get(SimulatorCounter.MD_DUPLICATE_TRADES)).isEqualTo(TRADES + 1);

        trade(T, TRADES + 1);
        assertThat(analytics.volume(1)).as("past what the first join heard").isEqualTo(100L * TRADES);
    }

    @Test
    void shouldCountTheTradesOfAnotherSessionWhoseFirstMessageDiffers() throws IOException
    {
        readSession(T, 10);
        readSession(T + 1, 10);

        assertThat(analytics.trades(1)).as("the md-publisher's next run: its trades are new").isEqualTo(20);
        assertThat(counters.get(SimulatorCounter.MD_DUPLICATE_TRADES)).isZero();
    }

    @Test
    void shouldCountWhatAnEarlierJoinDidNotReachWhenAJoinReadsFurther() throws IOException
    {
        readSession(T, 5);
        readSession(T, 12);
        readSession(T, 12);

        assertThat(analytics.trades(1)).isEqualTo(12);
        assertThat(counters.get(SimulatorCounter.MD_DUPLICATE_TRADES)).isEqualTo(5 + 12);
    }

    @Test
    void shouldNotCountWhatASessionWithoutTradeAnalyticsHearsAgain() throws IOException
    {
        final MoldReplay uncounted = new MoldReplay(analytics.inconsistenciesOnly(), counters, false);
        for (int join = 0; join < 2; join++)
        {
            uncounted.joined();
            final ByteBuffer start = ByteBuffer.allocate(12).put((byte)'S').putShort((short)0).putShort((short)0)
                .putShort((short)0).putInt(1).put(ITCH50.EVENT_CODE_START_OF_MESSAGES).flip();
            uncounted.onMessage(start);
            final ByteBuffer tradeMessage = ByteBuffer.allocate(1).put((byte)'P').flip();
            uncounted.onMessage(tradeMessage);
            uncounted.onTrade(1, T, 1_000_000, 100, 1);
        }

        assertThat(counters.get(SimulatorCounter.MD_DUPLICATE_TRADES)).isZero();
        assertThat(analytics.trades(1)).isZero();
    }

    /** A join: System Event 'O' stamped with the session's start, then trades with Match Numbers 1 to count. */
    private void readSession(final long startNs, final int count) throws IOException
    {
        replay.joined();
        final ITCH50.SystemEvent start = new ITCH50.SystemEvent();
        start.timestampHigh = (int)(startNs >>> 32);
        start.timestampLow = startNs & 0xFFFF_FFFFL;
        start.eventCode = ITCH50.EVENT_CODE_START_OF_MESSAGES;
        deliver(start);
        for (int matchNumber = 1; matchNumber <= count; matchNumber++)
        {
            trade(startNs, matchNumber);
        }
    }

    /** A Trade 'P' of 100 shares, stamped {@code matchNumber} ns after the session's start. */
    private void trade(final long startNs, final long matchNumber) throws IOException
    {
        final ITCH50.Trade message = new ITCH50.Trade();
        message.stockLocate = 1;
        message.timestampHigh = (int)((startNs + matchNumber) >>> 32);
        message.timestampLow = (startNs + matchNumber) & 0xFFFF_FFFFL;
        message.buySellIndicator = 'B';
        message.shares = 100;
        message.stock = Symbols.pack("AAPL");
        message.price = 1_000_000;
        message.matchNumber = matchNumber;
        deliver(message);
    }

    private void brokenTrade(final long matchNumber) throws IOException
    {
        final ITCH50.BrokenTrade message = new ITCH50.BrokenTrade();
        message.stockLocate = 1;
        message.timestampHigh = (int)((T + TRADES + 1) >>> 32);
        message.timestampLow = (T + TRADES + 1) & 0xFFFF_FFFFL;
        message.matchNumber = matchNumber;
        deliver(message);
    }

    /** As {@link MoldSession} does: the replay first, then the books and the analytics. */
    private void deliver(final ITCH50.Message message) throws IOException
    {
        final ByteBuffer buffer = ByteBuffer.allocate(64);
        message.put(buffer);
        buffer.flip();
        replay.onMessage(buffer);
        adapter.message(buffer);
    }
}
