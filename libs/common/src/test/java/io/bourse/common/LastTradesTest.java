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

    /**
     * Past the 65 slots: the newest 64 are kept, each broken in turn gives the reference to the one before, and none
     * is left once they all are, though the trade before them is still in the 65th slot.
     */
    @Test
    void shouldGiveTheReferenceToTheNewestTradeNotBrokenAmongTheLast64()
    {
        final int last = 3 * LastTrades.TRADES + 5;
        final int oldestKept = last - LastTrades.TRADES + 1;
        for (int trade = 1; trade <= last; trade++)
        {
            trades.store(matchNumber(trade), price(trade));
        }
        assertThat(trades.price()).isEqualTo(price(last));
        trades.broken(matchNumber(last - 1));
        assertThat(trades.price()).as("a trade broken behind the newest").isEqualTo(price(last));
        trades.broken(matchNumber(last));
        assertThat(trades.price()).isEqualTo(price(last - 2));
        for (int trade = last - 2; trade > oldestKept; trade--)
        {
            trades.broken(matchNumber(trade));
            assertThat(trades.price()).isEqualTo(price(trade - 1));
        }
        trades.broken(matchNumber(oldestKept));
        assertThat(trades.price()).as("every trade kept broken, not the one before them").isZero();
        trades.store(matchNumber(last + 1), price(last + 1));
        assertThat(trades.price()).isEqualTo(price(last + 1));
        assertThat(buffer.getLong(OFFSET - 8)).as("nothing written before the offset").isZero();
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

    private static long price(final int trade)
    {
        return 1_000_000 + trade;
    }

    /** @return the engine's match number of a shard's trade: its count, then the shard (1) in the low 4 bits. */
    private static long matchNumber(final int trade)
    {
        return ((long)trade << 4) | 1;
    }
}
