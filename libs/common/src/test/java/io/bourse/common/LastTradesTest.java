package io.bourse.common;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A symbol's last trades: the newest not broken is the reference, replayed trades are left out, 64 are kept. */
class LastTradesTest
{
    private static final int OFFSET = 16;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[OFFSET + LastTrades.LENGTH + 8]);
    private final LastTrades trades = new LastTrades().wrap(buffer, OFFSET);

    @Test
    void shouldGiveNoPriceBeforeTheFirstTrade()
    {
        assertThat(trades.price()).isZero();
        trades.broken(matchNumber(1));
        assertThat(trades.price()).isZero();
    }

    /** Past the 65 slots: the newest 64 are kept, each broken in turn gives the reference to the one before. */
    @Test
    void shouldGiveTheReferenceToTheNewestTradeNotBrokenAmongTheLast64()
    {
        final int last = 3 * LastTrades.TRADES + 5;
        for (int trade = 1; trade <= last; trade++)
        {
            trades.store(matchNumber(trade), 1_000_000 + trade);
        }
        assertThat(trades.price()).isEqualTo(1_000_000 + last);
        trades.broken(matchNumber(last - 1));
        assertThat(trades.price()).as("a trade broken behind the newest").isEqualTo(1_000_000 + last);
        for (int trade = last; trade > last - LastTrades.TRADES + 1; trade--)
        {
            trades.broken(matchNumber(trade));
            assertThat(trades.price()).isGreaterThanOrEqualTo(1_000_000 + last - LastTrades.TRADES + 1);
        }
        assertThat(trades.price()).as("the oldest kept").isEqualTo(1_000_000 + last - LastTrades.TRADES + 1);
        trades.broken(matchNumber(last - LastTrades.TRADES));
        assertThat(trades.price()).as("a trade no longer kept").isEqualTo(1_000_000 + last - LastTrades.TRADES + 1);
        trades.broken(matchNumber(last - LastTrades.TRADES + 1));
        assertThat(trades.price()).as("every trade kept broken").isZero();
        assertThat(buffer.getLong(0)).as("nothing written before the offset").isZero();
        assertThat(buffer.getLong(OFFSET + LastTrades.LENGTH)).as("nor after the length").isZero();
    }

    @Test
    void shouldLeaveOutATradeNotAboveTheNewest()
    {
        trades.store(matchNumber(1), 1_000_000);
        trades.store(matchNumber(2), 1_000_100);
        trades.store(matchNumber(2), 2_000_000);
        trades.store(matchNumber(1), 3_000_000);
        assertThat(trades.price()).isEqualTo(1_000_100);
        trades.broken(matchNumber(2));
        assertThat(trades.price()).as("no second copy of the trade").isEqualTo(1_000_000);
    }

    @Test
    void shouldForgetEveryTradeWhenCleared()
    {
        trades.store(matchNumber(7), 1_000_000);
        trades.clear();
        assertThat(trades.price()).isZero();
        trades.store(matchNumber(1), 1_000_300);
        assertThat(trades.price()).as("a lower match number after a clear").isEqualTo(1_000_300);
    }

    /** @return the engine's match number of a shard's trade: its count, then the shard (1) in the low 4 bits. */
    private static long matchNumber(final int trade)
    {
        return ((long)trade << 4) | 1;
    }
}
