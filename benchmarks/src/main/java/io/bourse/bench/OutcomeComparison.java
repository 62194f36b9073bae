package io.bourse.bench;

import io.bourse.engine.replay.TradeLog;

import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * Two {@link ReplayOutcome}s compared trade by trade, in emission order, and resting order by resting order, in book
 * order: either identical, or the first row where each differs.
 *
 * @param left   the first outcome.
 * @param right  the second outcome.
 * @param trades the first trade that differs, or null when every trade is the same.
 * @param book   the first resting order that differs, or null when the final books are the same.
 */
public record OutcomeComparison(ReplayOutcome left, ReplayOutcome right, Divergence trades, Divergence book)
{
    /** Row text printed where one side has fewer rows than the other. */
    public static final String NO_ROW = "(none)";

    /**
     * The first row where two lists of CSV rows differ.
     *
     * @param what  what a row is ("trade", "resting order").
     * @param index 0-based index of the row.
     * @param left  the left row, or {@link #NO_ROW} past the end of the left list.
     * @param right the right row, or {@link #NO_ROW} past the end of the right list.
     */
    public record Divergence(String what, int index, String left, String right)
    {
    }

    /**
     * @param left  the first outcome.
     * @param right the second outcome.
     * @return the comparison of their trades and of their final books.
     */
    public static OutcomeComparison of(final ReplayOutcome left, final ReplayOutcome right)
    {
        final TradeLog leftTrades = left.trades();
        final TradeLog rightTrades = right.trades();
        final List<String> leftBook = left.book();
        final List<String> rightBook = right.book();
        return new OutcomeComparison(left, right,
            firstDivergence("trade", leftTrades.count(), leftTrades::csvRow, rightTrades.count(), rightTrades::csvRow),
            firstDivergence("resting order", leftBook.size(), leftBook::get, rightBook.size(), rightBook::get));
    }

    /**
     * Compares two lists of rows index by index.
     *
     * @param what       what a row is, for the report.
     * @param leftCount  number of left rows.
     * @param leftRow    the left row at an index.
     * @param rightCount number of right rows.
     * @param rightRow   the right row at an index.
     * @return the first index where the rows differ or only one list has a row, or null when the lists are equal.
     */
    public static Divergence firstDivergence(
        final String what,
        final int leftCount,
        final IntFunction<String> leftRow,
        final int rightCount,
        final IntFunction<String> rightRow)
    {
        final int common = Math.min(leftCount, rightCount);
        for (int i = 0; i < common; i++)
        {
            final String left = leftRow.apply(i);
            final String right = rightRow.apply(i);
            if (!left.equals(right))
            {
                return new Divergence(what, i, left, right);
            }
        }
        if (leftCount == rightCount)
        {
            return null;
        }
        return new Divergence(what, common,
            common < leftCount ? leftRow.apply(common) : NO_ROW, common < rightCount ? rightRow.apply(common) : NO_ROW);
    }

    /** @return true when the trades and the final books are the same. */
    public boolean identical()
    {
        return null == trades && null == book;
    }

    /**
     * @return one line naming the pair and saying "identical", or, for trades and then the book, the first divergence:
     * its 0-based index and both rows, each on its own line after the name of its side.
     */
    public String describe()
    {
        final String pair = left.name() + " vs " + right.name();
        if (identical())
        {
            return pair + ": identical";
        }
        final String rowFormat = "%n    %-" + Math.max(left.name().length(), right.name().length()) + "s  %s";
        final StringBuilder sb = new StringBuilder(pair).append(": DIFFERENT");
        for (final Divergence divergence : new Divergence[]{ trades, book })
        {
            if (null != divergence)
            {
                sb.append(String.format(Locale.ROOT, "%n  first different %s: #%,d (0-based)",
                        divergence.what(), divergence.index()))
                    .append(String.format(Locale.ROOT, rowFormat, left.name(), divergence.left()))
                    .append(String.format(Locale.ROOT, rowFormat, right.name(), divergence.right()));
            }
        }
        return sb.toString();
    }
}
