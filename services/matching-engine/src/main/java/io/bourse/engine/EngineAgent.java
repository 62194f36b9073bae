package io.bourse.engine;

import io.aeron.Aeron;
import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.driver.status.StreamCounter;
import io.aeron.driver.status.SubscriberPos;
import io.bourse.common.metrics.LatencySummary;
import io.bourse.engine.match.MatchingEngine;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.status.CountersReader;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The shard's single thread: polls the command stream and lets the {@link CommandAdapter} apply each command to the
 * matching engine, whose events the {@link EventProxy} publishes before the next command is read. After each batch it
 * publishes the open order count for the metrics thread (which must not read the engine's maps). At a stop it first
 * drains ({@link #awaitDrained(long, long)}): what it took is answered before it goes.
 */
final class EngineAgent implements Agent
{
    /**
     * Commands taken per duty cycle. A gateway sends up to a few hundred per client read, many reads per cycle; at 64
     * the shard fell behind its gateways on a shared thread and the backlog in the command and event terms pushed the
     * per-order cost up with cache misses ({@code bench gateway} at 500,000/s, 64 MiB terms: 2.9 to 3.1 us of
     * exchange-thread CPU per order at 64, 2.3 us at 1024 and more).
     */
    private static final int FRAGMENT_LIMIT = 1024;
    private static final int RUNNING = 0;
    /** Takes commands and publishes, reporting the first duty cycle with nothing to do. */
    private static final int DRAINING = 1;
    /** Takes no more commands, only publishes the held events. */
    private static final int PUBLISHING_HELD = 2;
    /** Nothing held (or nobody to take it) and no command half taken: the agent does nothing more. */
    private static final int DRAINED = 3;

    /** How a stop's drain ended ({@link #awaitDrained(long, long)}). */
    enum DrainOutcome
    {
        /** Every command sent before the stop was taken and answered, every event published. */
        DRAINED,
        /**
         * Events were held when no subscriber was left to take them, not even the event archive's recording: they
         * are dropped ({@link #droppedCount()} of them); the commands not yet taken stay on the command stream.
         */
        UNHEARD,
        /**
         * The time to take commands ran out (commands kept coming, or a subscriber read slowly): the agent stopped
         * taking them, then published every event it held.
         */
        STOPPED_TAKING,
        /** Events are still held: a subscriber of the event stream does not read. */
        HELD,
        /**
         * The event recording stopped while the shard ran: it took no more commands and published nothing it held
         * ({@link #droppedCount()} messages): the next run publishes the events of the commands whose
         * SequencedCommand was recorded; a command whose own SequencedCommand is held is in no recording, and no run
         * answers it. The commands not yet taken stay on the command stream.
         */
        UNRECORDED,
        /** The closing thread was interrupted while it waited: the agent may still hold events. */
        INTERRUPTED
    }

    private final int shardId;
    private final Subscription commands;
    private final CommandAdapter commandAdapter;
    private final EventProxy eventProxy;
    private final MatchingEngine engine;
    private final AtomicLong openOrderCount;
    private final LatencySummary serviceTime;
    /** The archive's recording of the event stream, the shard's input log; null without the archive. */
    private final EventRecording recording;
    /** Where a stop stands: {@link #RUNNING} until the closing thread drains, {@link #DRAINED} set by the agent. */
    private final AtomicInteger drain = new AtomicInteger(RUNNING);
    /** Messages held when the drain found no subscriber: written by the agent before it sets {@link #DRAINED}. */
    private int droppedCount;
    /** Set by the agent once the recording has stopped while the shard runs; read by the readiness check. */
    private volatile boolean recordingStopped;
    /** The media driver's counters, where it keeps a subscriber position for each image it linked to a subscription. */
    private final CountersReader counters;
    private final CountersReader.MetaData unseenImageFinder = this::findUnseenImage;
    private boolean unseenImage;
    /**
     * Per image of the command stream whose join the run published: its session id to its correlation id (a session's
     * publication linked again is a new image). Never pruned: one entry per gateway publication the run heard.
     */
    private final Long2LongHashMap joinedImages = new Long2LongHashMap(Aeron.NULL_VALUE);
    private final Consumer<Image> joinPublisher = this::publishJoin;
    private int joinsPublished;

    /**
     * @param shardId        this shard's id, for the role name.
     * @param commands       the shard's command stream.
     * @param commandAdapter applies each command to the engine and records its service time.
     * @param eventProxy     publishes the engine's events.
     * @param engine         the shard's matching engine.
     * @param openOrderCount published after each batch for the metrics thread.
     * @param serviceTime    the summary the command adapter records into: one batch per duty cycle.
     * @param recording      the archive's recording of the event stream, or null without the archive.
     * @param counters       the media driver's counters, read through the shard's client.
     */
    EngineAgent(
        final int shardId, final Subscription commands, final CommandAdapter commandAdapter,
        final EventProxy eventProxy, final MatchingEngine engine, final AtomicLong openOrderCount,
        final LatencySummary serviceTime, final EventRecording recording, final CountersReader counters)
    {
        this.shardId = shardId;
        this.eventProxy = eventProxy;
        this.commands = commands;
        this.commandAdapter = commandAdapter;
        this.engine = engine;
        this.openOrderCount = openOrderCount;
        this.serviceTime = serviceTime;
        this.recording = recording;
        this.counters = counters;
    }

    @Override
    public int doWork()
    {
        final int drainState = drain.get();
        if (DRAINED == drainState)
        {
            return 0;
        }
        final boolean unrecorded = isRecordingStopped();
        // Before the poll: an image the check finds is then polled in this cycle.
        final boolean everyImageSeen = DRAINING != drainState || !hasUnseenCommandImage();
        final int workCount;
        serviceTime.beginBatch();
        try
        {
            workCount = unrecorded ? 0 : eventProxy.publishHeld() + (PUBLISHING_HELD == drainState ? 0 :
                publishJoins() + commandAdapter.poll(commands, FRAGMENT_LIMIT));
        }
        finally
        {
            serviceTime.endBatch();
        }
        if (workCount > 0)
        {
            openOrderCount.setRelease(engine.openOrderCount());
        }
        else if (RUNNING != drainState && (unrecorded || eventProxy.canPublish() || !eventProxy.isConnected()) &&
            everyImageSeen)
        {
            droppedCount = eventProxy.heldCount();
            drain.set(DRAINED);
        }
        return workCount;
    }

    /**
     * Publishes CommandStreamJoined for each image of the command stream this run has not announced yet (a gateway's
     * publication, or the same one linked again), before the duty cycle's poll: where the run joined it, so that the
     * gateway rejects the orders it sent there before that position and still holds unanswered, which a run that died
     * took without publishing their events ({@link EventProxy#commandStreamJoined}). An image the client makes
     * available during the poll is announced at the next duty cycle, after the events of its first commands, which
     * come after the join position and are not concerned. Each duty cycle reads the images' session and correlation
     * ids, without allocating.
     *
     * @return the joins published (or held).
     */
    private int publishJoins()
    {
        joinsPublished = 0;
        commands.forEachImage(joinPublisher);
        return joinsPublished;
    }

    private void publishJoin(final Image image)
    {
        final int sessionId = image.sessionId();
        if (joinedImages.get(sessionId) != image.correlationId())
        {
            joinedImages.put(sessionId, image.correlationId());
            eventProxy.commandStreamJoined(shardId, sessionId, image.joinPosition());
            joinsPublished++;
        }
    }

    /**
     * Whether the media driver has linked a publication to the command subscription whose image the shard's client
     * has not made available yet: its conductor hears of a new image at its next duty cycle (it sleeps up to 16 ms),
     * so a gateway that connected and sent just before a stop has commands there that a poll does not see. A drain
     * that ended then would leave them to no run: the next run's subscription joins an IPC stream at its end. Read
     * from the driver's subscriber positions (one per linked image, keyed by the subscription's registration id and
     * the image's session id); while draining only, before the duty cycle's poll, so that an image the client made
     * available between the poll and the check is not taken as polled.
     *
     * @return true while such an image exists.
     */
    private boolean hasUnseenCommandImage()
    {
        unseenImage = false;
        counters.forEach(unseenImageFinder);
        return unseenImage;
    }

    private void findUnseenImage(final int counterId, final int typeId, final DirectBuffer key, final String label)
    {
        if (SubscriberPos.SUBSCRIBER_POSITION_TYPE_ID == typeId &&
            commands.registrationId() == key.getLong(StreamCounter.REGISTRATION_ID_OFFSET) &&
            null == commands.imageBySessionId(key.getInt(StreamCounter.SESSION_ID_OFFSET)))
        {
            unseenImage = true;
        }
    }

    /**
     * Whether the archive stopped recording the event stream while the shard runs (its disk full, or stopped by
     * hand): the shard then takes no more commands, whose answers no recording would hold and its next run would not
     * recover; they stay on the command stream for that run. Nor does it publish the events and SequencedCommands it
     * holds (refused by a slow subscriber's back pressure): the next run publishes first the events of its recording's
     * commands that no run published, so a held event published now would reach the subscribers twice, and a held
     * SequencedCommand's order would be answered by this run and unknown to the next. A narrower window remains: what
     * the shard published after the recording's stop position and before this check saw the stop (the archive records
     * a little behind the publisher) reached the subscribers and may be published again by the next run. Logged once,
     * when first seen.
     *
     * @return true once the recording has stopped; false without the archive.
     */
    private boolean isRecordingStopped()
    {
        if (null != recording && !recordingStopped && !recording.isActive())
        {
            recordingStopped = true;
            System.err.println("matching-engine shard " + shardId + ": its event recording (recording " +
                recording.recordingId() + ") stopped while the shard runs (the event archive's disk full, or " +
                "stopped by hand): the shard takes no more commands, whose answers no recording would hold; they " +
                "stay on the command stream for its next run: restart the shard");
        }
        return recordingStopped;
    }

    /** @return true once the archive stopped recording the event stream while the shard ran; any thread. */
    boolean hasRecordingStopped()
    {
        return recordingStopped;
    }

    /**
     * Lets the shard stop without losing a command it took (SIGTERM, {@code docker compose stop}): called on the
     * closing thread before the agent is closed. The agent goes on as before, publishing the events the stream
     * refused and taking and answering the commands the gateways sent before the stop, until a duty cycle publishes
     * nothing and finds no command, with no event held back (or no subscriber left to take one, not even the event
     * archive's recording); from then on it does nothing. When commands keep coming past {@code takeTimeoutNs}, it
     * stops taking them and only publishes what it holds, so that a command it took is never left half answered.
     * Without this, the events held at a stop were lost, and with them a command whose SequencedCommand was among
     * them: taken, never answered and, not being in the input log, never recovered.
     *
     * @param takeTimeoutNs    how long the agent may go on taking commands, in ns.
     * @param publishTimeoutNs how long it may then take to publish what it holds, in ns.
     * @return how the drain ended.
     */
    DrainOutcome awaitDrained(final long takeTimeoutNs, final long publishTimeoutNs)
    {
        drain.compareAndSet(RUNNING, DRAINING);
        if (awaitDrained(takeTimeoutNs))
        {
            return drainedOutcome();
        }
        if (Thread.currentThread().isInterrupted())
        {
            return DrainOutcome.INTERRUPTED;
        }
        if (!drain.compareAndSet(DRAINING, PUBLISHING_HELD))
        {
            return drainedOutcome(); // the agent drained just as the time ran out
        }
        if (awaitDrained(publishTimeoutNs))
        {
            return recordingStopped ? DrainOutcome.UNRECORDED :
                0 == droppedCount ? DrainOutcome.STOPPED_TAKING : DrainOutcome.UNHEARD;
        }
        return Thread.currentThread().isInterrupted() ? DrainOutcome.INTERRUPTED : DrainOutcome.HELD;
    }

    /**
     * @return the messages (events and SequencedCommands) the drain dropped because no subscriber was left to take
     *         them; read after {@link #awaitDrained(long, long)} returned {@link DrainOutcome#UNHEARD}.
     */
    int droppedCount()
    {
        return droppedCount;
    }

    /**
     * @return how a drain the agent ended itself went: all published, left to the next run as the recording stopped,
     *         or dropped for want of a subscriber.
     */
    private DrainOutcome drainedOutcome()
    {
        if (recordingStopped)
        {
            return DrainOutcome.UNRECORDED;
        }
        return 0 == droppedCount ? DrainOutcome.DRAINED : DrainOutcome.UNHEARD;
    }

    private boolean awaitDrained(final long timeoutNs)
    {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        while (DRAINED != drain.get())
        {
            if (System.nanoTime() - deadlineNs >= 0 || Thread.currentThread().isInterrupted())
            {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return true;
    }

    @Override
    public String roleName()
    {
        return "matching-engine-" + shardId;
    }
}
