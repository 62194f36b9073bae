package io.bourse.engine;

import io.aeron.Aeron;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.bourse.common.aeron.EventArchive;
import io.bourse.common.aeron.EventReplay;
import io.bourse.sbe.engine.AdminResponseDecoder;
import io.bourse.sbe.engine.CommandStreamJoinedDecoder;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.SequencedCommandDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Recovers a restarted shard from the {@link EventArchive}'s recordings of its event stream, before the shard takes
 * its first command. With the archive on, the stream carries each command the shard took (SequencedCommand) before
 * its events, so each run's recording is that run's input log and the engine, which is deterministic (no wall clock
 * but the run's start time that its StartNumbering carries, in the log too; no randomness), gets back its exact state
 * by taking the same commands again: books in price-time priority, order
 * reference numbers, match numbers, good-till-seconds expiries, closing-cross books, trading states, price bands,
 * self-trade prevention modes and the executions an operator may break.
 *
 * <p>The runs are replayed oldest first, each from its recording's start to where it stopped, through a
 * {@link CommandAdapter} that publishes nothing; every recorded event must equal the next one the replay produced
 * ({@link EventProxy#matchRecorded}), and so must every answer to an admin command (AdminResponse), which the replay
 * produces for the commands of a run recorded at schema version 7 or later, the first that answered them
 * ({@link EventProxy#replayAnswers}), so a log that this engine's version and configuration (symbols, shard, maximum
 * order size; each run's price bands and self-trade prevention modes are in its log, {@link StartConfiguration})
 * would not have produced stops the recovery instead of giving another state. A run still recording (its engine died
 * and the media driver has not yet timed its stream out, or another engine of this shard runs) is waited for, up to
 * 60 s. The events a run produced but never published (it stopped between a recorded command and its events, or while
 * they were held) are the new run's first events, renumbered from 1 ({@link EventProxy#start}): the gateways answer
 * them then; so are the answers to admin commands it never published, for the operator's tool. An answer that a later
 * run, of an engine from before such answers were published, took its next command without is dropped there
 * ({@link EventProxy#dropUnpublishedAnswers}). A command whose SequencedCommand was itself never published is in no
 * recording: the run stopped before taking it, as far as anyone can tell (its sender had no answer). Each
 * SequencedCommand also says where on the command stream its run took it ({@link TakenCommands}), so that the new run
 * skips the commands it hears again; those that say nowhere are a run's settings, which the
 * {@link StartConfiguration} is told of.
 *
 * <p>Runs on the calling thread at start; allocates (archive clients, replays).
 */
final class EngineRecovery implements FragmentHandler
{
    /** How long a run still recording is waited for. */
    private static final long RUN_STOP_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);
    /** Pause between two listings of the recordings while a run still records. */
    private static final long RUN_STOP_POLL_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private final CommandAdapter commandAdapter;
    private final EventProxy eventProxy;
    private final TakenCommands taken;
    private final StartConfiguration settings;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final SequencedCommandDecoder sequencedCommand = new SequencedCommandDecoder();
    private final UnsafeBuffer command = new UnsafeBuffer(0, 0);
    private long commands;
    private long events;
    private RuntimeException divergence;

    /**
     * What a recovery replayed.
     *
     * @param runs            earlier runs of the shard replayed.
     * @param commands        commands taken again.
     * @param events          recorded events matched.
     * @param elapsedNs       time the recovery took, in ns.
     */
    record Outcome(int runs, long commands, long events, long elapsedNs)
    {
    }

    /**
     * @param commandAdapter applies the replayed commands to the engine; publishes no SequencedCommand.
     * @param eventProxy     the engine's listener, in recovery ({@link EventProxy#startRecovery}) until
     *                       {@link #recover} ends it.
     * @param taken          given, per image of the command stream, where the replayed runs took their last command,
     *                       for the live adapter to skip those commands when it hears them again.
     * @param settings       told the settings of each replayed run, for the new run to take those it changes.
     */
    EngineRecovery(
        final CommandAdapter commandAdapter, final EventProxy eventProxy, final TakenCommands taken,
        final StartConfiguration settings)
    {
        this.commandAdapter = commandAdapter;
        this.eventProxy = eventProxy;
        this.taken = taken;
        this.settings = settings;
    }

    /**
     * Replays every recorded run of the shard's event stream, oldest first; the proxy's recovery ends when the live run
     * starts ({@link EventProxy#start}).
     *
     * @param aeron    the shard's client.
     * @param archive  the event archive, enabled.
     * @param streamId the shard's event stream id.
     * @return what was replayed; no run when the archive holds none (the shard's first start).
     * @throws IllegalStateException when a run is still recording after 60 s, or the replay diverges from a run.
     * @throws io.aeron.exceptions.AeronException when the archive cannot be reached or a replay fails.
     */
    Outcome recover(final Aeron aeron, final EventArchive archive, final int streamId)
    {
        final long startNs = System.nanoTime();
        final EventReplay replay = new EventReplay(aeron, archive);
        final List<EventReplay.Run> runs = stoppedRuns(replay, streamId);
        for (final EventReplay.Run run : runs)
        {
            eventProxy.startRun();
            replay.replayRecording(run.recordingId(), run.startPosition(), run.stopPosition(), this);
            if (null != divergence)
            {
                throw new IllegalStateException("recording " + run.recordingId() + " (run session " +
                    run.sessionId() + "), after " + commands + " commands: " + divergence.getMessage(), divergence);
            }
        }
        return new Outcome(runs.size(), commands, events, System.nanoTime() - startNs);
    }

    /**
     * Takes one recorded message: a SequencedCommand is applied to the engine, a CommandStreamJoined skipped, any
     * other event, AdminResponses included, matched against the held ones.
     * Throws nothing: the first divergence, or anything a replayed command threw, is kept, the rest of the replay is
     * skipped, and {@link #recover} throws it.
     */
    @Override
    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header frameHeader)
    {
        // Image.poll hands a handler's exception to the client's error handler and goes on: keep the first and
        // skip the rest of the replay, then throw it.
        if (null != divergence)
        {
            return;
        }
        try
        {
            take(buffer, offset, length);
        }
        catch (final RuntimeException ex)
        {
            // A divergence, or anything else the replayed commands threw (a corrupt SequencedCommand): the state is
            // not the recorded one.
            divergence = ex;
        }
    }

    private void take(final DirectBuffer buffer, final int offset, final int length)
    {
        header.wrap(buffer, offset);
        if (MessageHeaderDecoder.SCHEMA_ID == header.schemaId() &&
            CommandStreamJoinedDecoder.TEMPLATE_ID == header.templateId())
        {
            return; // where the run joined a command publication: no command's outcome, nothing to replay or match
        }
        if (MessageHeaderDecoder.SCHEMA_ID == header.schemaId() &&
            AdminResponseDecoder.TEMPLATE_ID == header.templateId())
        {
            eventProxy.matchRecorded(buffer, offset, length); // an answer to an admin command: not counted as an event
            return;
        }
        if (MessageHeaderDecoder.SCHEMA_ID != header.schemaId() ||
            SequencedCommandDecoder.TEMPLATE_ID != header.templateId())
        {
            eventProxy.matchRecorded(buffer, offset, length);
            events++;
            return;
        }
        if (!eventProxy.canPublish() && !eventProxy.dropUnpublishedAnswers())
        {
            throw new IllegalStateException("recovery diverged: the replay produced events the run did not publish " +
                "before its command " + (commands + 1));
        }
        sequencedCommand.wrap(buffer, offset + MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(),
            header.version());
        final long position = sequencedCommand.commandPosition();
        final int sessionId = sequencedCommand.commandSessionId();
        sequencedCommand.wrapCommand(command);
        eventProxy.replayAnswers(header.version() >= EventProxy.ADMIN_RESPONSE_SINCE_VERSION);
        if (SequencedCommandDecoder.commandPositionNullValue() != position)
        {
            taken.taken(sessionId, position);
        }
        else // a run's settings, or any command of a version 5 run
        {
            settings.recovered(command, 0);
        }
        commandAdapter.take(command, 0, command.capacity(), sessionId, position);
        commands++;
    }

    /**
     * Lists the stream's runs, oldest first, waiting while any still records.
     */
    private static List<EventReplay.Run> stoppedRuns(final EventReplay replay, final int streamId)
    {
        final long deadlineNs = System.nanoTime() + RUN_STOP_TIMEOUT_NS;
        boolean logged = false;
        while (true)
        {
            final List<EventReplay.Run> runs = replay.runs(streamId);
            final EventReplay.Run recording =
                runs.stream().filter(EventReplay.Run::recording).findFirst().orElse(null);
            if (null == recording)
            {
                return runs;
            }
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new IllegalStateException("the event archive still records an earlier run of stream " +
                    streamId + " (recording " + recording.recordingId() + ", session " + recording.sessionId() +
                    ") after 60 s: another engine of this shard runs");
            }
            if (!logged)
            {
                logged = true;
                System.out.println("matching-engine: waiting for the event archive to stop recording the earlier " +
                    "run of stream " + streamId + " (recording " + recording.recordingId() + ") before recovery");
            }
            LockSupport.parkNanos(RUN_STOP_POLL_NS);
        }
    }
}
