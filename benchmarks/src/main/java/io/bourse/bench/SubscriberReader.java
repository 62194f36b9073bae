package io.bourse.bench;

import io.bourse.common.time.MidnightNanoClock;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One client thread of the fanout benchmark: reads those of its subscribers that have data (one selector, polled
 * with {@code selectNow}, one read call per ready subscriber), yields when none had any (it never sleeps), and sends
 * their heartbeats. A stalled subscriber is read until the measured window starts, then no more. Its healthy
 * subscribers record into one histogram, ns, and those of their messages in the stall period into a second one; both
 * are read once the thread has ended.
 */
final class SubscriberReader implements Runnable
{
    private static final long HIGHEST_LATENCY_NS = TimeUnit.SECONDS.toNanos(60);
    private static final long KEEP_ALIVE_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private final List<ItchSubscriber> subscribers;
    private final ItchSubscriber stalled;
    private final MidnightNanoClock clock;
    private final long stallFromNs;
    private final AtomicLong errors;
    private final Histogram histogram = new Histogram(HIGHEST_LATENCY_NS, 3);
    private final StallRecorder stallRecorder;
    private final Selector selector;
    private final List<SelectionKey> keys = new ArrayList<>();
    private final Consumer<SelectionKey> onReadable = this::onReadable;
    private volatile boolean running = true;
    private long lastWindowReceiptNs;
    private int bytesRead;

    /**
     * @param subscribers   the subscribers this thread reads.
     * @param unrecorded    a subscriber whose latencies are not recorded (subscriber 0 in every step of a stall run,
     *                      the one that stalls in the steps with a stall), or null.
     * @param stall         true to stop reading {@code unrecorded} when the measured window starts.
     * @param stallPeriod   the stretch of the window in which one subscriber is stalled, or null without a stall.
     * @param clock         the benchmark's clock, ns since midnight.
     * @param windowStartNs first Timestamp of the measured window, ns since midnight.
     * @param windowEndNs   Timestamps from this one on are after the window.
     * @param errors        incremented when a subscriber's connection fails or closes; it is read no more.
     * @throws UncheckedIOException when the selector cannot be opened.
     */
    SubscriberReader(
        final List<ItchSubscriber> subscribers, final ItchSubscriber unrecorded, final boolean stall,
        final StallPeriod stallPeriod, final MidnightNanoClock clock, final long windowStartNs, final long windowEndNs,
        final AtomicLong errors)
    {
        this.subscribers = subscribers;
        this.stalled = stall ? unrecorded : null;
        this.clock = clock;
        this.stallFromNs = windowStartNs;
        this.errors = errors;
        this.stallRecorder = null == stallPeriod ? null :
            new StallRecorder(stallPeriod, new Histogram(HIGHEST_LATENCY_NS, 3));
        try
        {
            selector = Selector.open();
            for (final ItchSubscriber subscriber : subscribers)
            {
                subscriber.measure(
                    subscriber == unrecorded ? null : histogram, stallRecorder, windowStartNs, windowEndNs);
                keys.add(subscriber.channel().register(selector, SelectionKey.OP_READ, subscriber));
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("subscriber selector", ex);
        }
    }

    @Override
    public void run()
    {
        long nextKeepAliveNs = 0;
        boolean stalling = false;
        try
        {
            while (running)
            {
                final long nowNs = System.nanoTime();
                if (!stalling && null != stalled && clock.nanosSinceMidnight() >= stallFromNs)
                {
                    stalling = true;
                    keys.get(subscribers.indexOf(stalled)).interestOps(0);
                }
                bytesRead = 0;
                selector.selectNow(onReadable);
                if (nowNs >= nextKeepAliveNs)
                {
                    nextKeepAliveNs = nowNs + KEEP_ALIVE_INTERVAL_NS;
                    keepAlive(stalling);
                }
                if (0 == bytesRead)
                {
                    Thread.yield();
                }
            }
        }
        catch (final IOException ex)
        {
            errors.incrementAndGet();
        }
        finally
        {
            closeSelector();
        }
        for (final ItchSubscriber subscriber : subscribers)
        {
            lastWindowReceiptNs = Math.max(lastWindowReceiptNs, subscriber.lastWindowReceiptNs());
        }
    }

    private void onReadable(final SelectionKey key)
    {
        final ItchSubscriber subscriber = (ItchSubscriber)key.attachment();
        try
        {
            final int bytes = subscriber.receive();
            if (bytes < 0)
            {
                throw new IOException("closed by the fanout");
            }
            bytesRead += bytes;
        }
        catch (final IOException ex)
        {
            key.cancel();
            errors.incrementAndGet();
        }
    }

    private void keepAlive(final boolean stalling)
    {
        for (final SelectionKey key : keys)
        {
            final ItchSubscriber subscriber = (ItchSubscriber)key.attachment();
            if (key.isValid() && !(stalling && subscriber == stalled))
            {
                try
                {
                    subscriber.keepAlive();
                }
                catch (final IOException ex)
                {
                    key.cancel();
                    errors.incrementAndGet();
                }
            }
        }
    }

    /** Deregisters the channels, which go back to the benchmark's thread, still open and non-blocking. */
    private void closeSelector()
    {
        try
        {
            selector.close();
        }
        catch (final IOException ex)
        {
            errors.incrementAndGet();
        }
    }

    /** Ends the thread's loop after its current pass. */
    void stop()
    {
        running = false;
    }

    /** @return the healthy subscribers' latencies, ns; read after the thread ended. */
    Histogram histogram()
    {
        return histogram;
    }

    /**
     * @return the healthy subscribers' latencies of the messages in the stall period, ns, empty without a stall; read
     * after the thread and the stall period have ended.
     */
    Histogram stallHistogram()
    {
        return null == stallRecorder ? new Histogram(HIGHEST_LATENCY_NS, 3) : stallRecorder.histogram();
    }

    /** @return receipt time of the last message of the window any subscriber got, ns since midnight; after the end. */
    long lastWindowReceiptNs()
    {
        return lastWindowReceiptNs;
    }
}
