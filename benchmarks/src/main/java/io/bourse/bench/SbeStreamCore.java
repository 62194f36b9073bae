package io.bourse.bench;

import io.bourse.engine.match.BookUpdate;
import io.bourse.engine.match.Display;
import io.bourse.engine.match.MatchingEngine;
import io.bourse.engine.match.MatchingEngineListener;
import io.bourse.engine.match.Side;
import org.HdrHistogram.Histogram;

/**
 * Bourse's matching core alone, on the calling thread, fed the very commands the engine service receives over Aeron
 * ({@link SbeCommandStream}) without encoding or transport: the baseline the service is divided by. Its listener
 * counts trades and rejects and feeds every event to an {@link EventChecksum}, without allocating, so that each pass
 * can be checked against the reference core ({@link #checksum()} against {@link SbeCommandStream#checksum()}) as the
 * service's is: the ratio then divides two runs known to have made the same events. The checksum is the listener's
 * work here as SBE encoding is the service's; in the service the subscriber computes it, on another thread.
 */
final class SbeStreamCore implements EngineUnderTest, MatchingEngineListener
{
    private final SbeCommandStream stream;
    private final EventChecksum checksum = new EventChecksum();
    private MatchingEngine engine;
    private long trades;
    private long rejects;

    /**
     * @param stream the translated commands.
     */
    SbeStreamCore(final SbeCommandStream stream)
    {
        this.stream = stream;
    }

    @Override
    public String name()
    {
        return "core alone, same commands as the service";
    }

    @Override
    public void reset()
    {
        engine = SbeCommandStream.newEngine(this);
        trades = 0;
        rejects = 0;
        checksum.reset();
        for (int i = 0; i < stream.benchStart(); i++)
        {
            stream.apply(engine, i);
        }
    }

    @Override
    public long runBench()
    {
        return runBench(stream.count());
    }

    /**
     * Applies the BENCH commands up to {@code end}, after {@link #reset()}: a prefix of what {@link #runBench()}
     * applies.
     *
     * @param end index after the last command to apply.
     * @return nanoseconds taken.
     */
    long runBench(final int end)
    {
        final MatchingEngine engine = this.engine;
        final SbeCommandStream stream = this.stream;
        final long startNs = System.nanoTime();
        for (int i = stream.benchStart(); i < end; i++)
        {
            stream.apply(engine, i);
        }
        return System.nanoTime() - startNs;
    }

    @Override
    public long runBenchTimed(final Histogram histogram)
    {
        final MatchingEngine engine = this.engine;
        final SbeCommandStream stream = this.stream;
        final int end = stream.count();
        final long startNs = System.nanoTime();
        for (int i = stream.benchStart(); i < end; i++)
        {
            final long beforeNs = System.nanoTime();
            stream.apply(engine, i);
            histogram.recordValue(System.nanoTime() - beforeNs);
        }
        return System.nanoTime() - startNs;
    }

    @Override
    public long trades()
    {
        return trades;
    }

    @Override
    public long failures()
    {
        return rejects;
    }

    /** @return {@link EventChecksum} of the events since the last {@link #reset()}, SETUP included. */
    long checksum()
    {
        return checksum.checksum();
    }

    @Override
    public void close()
    {
        engine = null;
    }

    @Override
    public void onOrderAccepted(
        final long clientOrderId, final long orderId, final long symbol, final Side side, final long quantity,
        final long price, final int timeInForce, final Display display)
    {
        checksum.onOrderAccepted(clientOrderId, orderId, symbol, side, quantity, price, timeInForce, display);
    }

    @Override
    public void onOrderRejected(final long clientOrderId, final long symbol, final byte reason)
    {
        rejects++;
        checksum.onOrderRejected(clientOrderId, symbol, reason);
    }

    @Override
    public void onOrderAdded(
        final long orderId, final long symbol, final Side side, final long quantity, final long price,
        final Display display, final int firm)
    {
        checksum.onOrderAdded(orderId, symbol, side, quantity, price, display, firm);
    }

    @Override
    public void onOrderExecuted(
        final long matchNumber, final long symbol, final long quantity, final long price,
        final long takerClientOrderId, final long takerOrderId, final Side takerSide,
        final long makerClientOrderId, final long makerOrderId, final long makerLeaves, final long takerLeaves)
    {
        trades++;
        checksum.onOrderExecuted(matchNumber, symbol, quantity, price, takerClientOrderId, takerOrderId, takerSide,
            makerClientOrderId, makerOrderId, makerLeaves, takerLeaves);
    }

    @Override
    public void onOrderCanceled(
        final long clientOrderId, final long orderId, final long symbol, final long canceledQuantity,
        final long leaves, final byte reason, final boolean wasResting)
    {
        checksum.onOrderCanceled(clientOrderId, orderId, symbol, canceledQuantity, leaves, reason, wasResting);
    }

    @Override
    public void onOrderReplaced(
        final long clientOrderId, final long newClientOrderId, final long orderId, final long newOrderId,
        final long symbol, final Side side, final long quantity, final long price, final BookUpdate bookUpdate,
        final Display display)
    {
        checksum.onOrderReplaced(clientOrderId, newClientOrderId, orderId, newOrderId, symbol, side, quantity, price,
            bookUpdate, display);
    }
}
