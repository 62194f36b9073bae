package io.bourse.common.aeron;

import io.aeron.Aeron;
import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.archive.client.AeronArchive;
import io.aeron.exceptions.AeronException;
import io.aeron.logbuffer.FragmentHandler;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Replays stretches of the runs of an engine shard's event stream from the {@link EventArchive}: for a service whose
 * subscription joined the stream too late to hear it (a restarted order gateway), a run is the
 * recording of the stream's Aeron session id and the stretch ends where the service's live image joined, so that
 * replayed and live events meet with none lost and none twice ({@link #replay}); a run that has stopped (an earlier run
 * of a restarted shard, or a down shard's, listed by {@link #runs}) is replayed to where its recording stopped ({@link
 * #replayRecording}), by the engine's recovery and by the gateway's and md-publisher's catch-ups. Connects to the
 * archive for each replay; runs on the calling thread until the replay is read to its end, handing every event to the
 * caller's handler. Not thread-safe; meant for a service's start, not its hot path (it allocates the archive client and
 * the replay's subscription).
 */
public final class EventReplay
{
    /** {@link #replay}: the archive holds no recording of the run. */
    public static final int NO_RECORDING = -1;
    /**
     * {@link #replay}: a newer run of the shard records (an engine that stopped without closing its stream, whose
     * image lingers), so the old run's events are not replayed.
     */
    public static final int SUPERSEDED = -2;

    /** Events taken per poll of a replay. */
    private static final int REPLAY_FRAGMENT_LIMIT = 4096;
    /** How long a replay may make no progress before it is given up. */
    private static final long REPLAY_STALL_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private final Aeron aeron;
    private final EventArchive archive;
    private final IdleStrategy idle = new BackoffIdleStrategy();
    private final RunRecording recording = new RunRecording();
    private long fromPosition;

    /**
     * @param aeron   the service's client, for the archive client and the replays (not closed here).
     * @param archive the event archive, enabled.
     */
    public EventReplay(final Aeron aeron, final EventArchive archive)
    {
        this.aeron = aeron;
        this.archive = archive;
    }

    /**
     * Replays a run's events from a position, or from its recording's start when that is later, up to a position.
     *
     * @param streamId     the shard's event stream id.
     * @param sessionId    the run: the Aeron session id of the shard's event publication.
     * @param fromPosition stream position to replay from, in bytes (0 for the whole run).
     * @param toPosition   stream position to replay to, exclusive, in bytes: the live image's join position, or a
     *                     stopped run's stop position.
     * @param handler      receives each event replayed, on the calling thread.
     * @return events replayed, 0 when the recording starts at or after {@code toPosition}; or {@link #NO_RECORDING}
     * or {@link #SUPERSEDED}, when nothing is replayed.
     * @throws AeronException when the archive cannot be reached or refuses the replay, or the replay ends short of
     *                        {@code toPosition} or makes no progress for 10 s.
     */
    public int replay(
        final int streamId, final int sessionId, final long fromPosition, final long toPosition,
        final FragmentHandler handler)
    {
        try (AeronArchive client = AeronArchive.connect(archive.clientContext(aeron)))
        {
            recording.find(client, streamId, sessionId);
            if (Aeron.NULL_VALUE == recording.recordingId)
            {
                return NO_RECORDING;
            }
            if (recording.recordingId != recording.newestRecordingId)
            {
                return SUPERSEDED;
            }
        }
        return replayRecording(
            recording.recordingId, Math.max(recording.startPosition, fromPosition), toPosition, handler);
    }

    /**
     * One run of an engine shard as the archive recorded its event stream.
     *
     * @param recordingId   the archive's id of the recording.
     * @param sessionId     the Aeron session id of the run's event publication.
     * @param startPosition stream position the recording starts at, in bytes.
     * @param stopPosition  stream position it stopped at, in bytes, or {@link AeronArchive#NULL_POSITION} while the
     *                      run records.
     */
    public record Run(long recordingId, int sessionId, long startPosition, long stopPosition)
    {
        /** @return true while the archive records the run (its shard runs, or died and its stream is not timed out). */
        public boolean recording()
        {
            return AeronArchive.NULL_POSITION == stopPosition;
        }
    }

    /**
     * Lists the recorded runs of a shard: each run continues the state of the ones before it (a restarted shard
     * recovers from them), so a service rebuilding the shard's state from its events replays them all, oldest first.
     *
     * @param streamId the shard's event stream id.
     * @return the runs in recording order, oldest first; empty when the archive holds none.
     * @throws AeronException when the archive cannot be reached or does not answer.
     */
    public List<Run> runs(final int streamId)
    {
        final List<Run> runs = new ArrayList<>();
        try (AeronArchive client = AeronArchive.connect(archive.clientContext(aeron)))
        {
            StreamRecordings.forEach(client, streamId, (recordingId, sessionId, startPosition, stopPosition) ->
                runs.add(new Run(recordingId, sessionId, startPosition, stopPosition)));
        }
        return runs;
    }

    /**
     * Finds a run among a shard's runs listed by {@link #runs}.
     *
     * @param runs      the shard's runs, oldest first.
     * @param sessionId the Aeron session id of the run's event publication.
     * @return the run's index; {@code runs.size()} when it is not listed, as a run whose shard has not started its
     * recording yet is newer than every run listed.
     */
    public static int runIndex(final List<Run> runs, final int sessionId)
    {
        for (int i = runs.size() - 1; i >= 0; i--)
        {
            if (runs.get(i).sessionId() == sessionId)
            {
                return i;
            }
        }
        return runs.size();
    }

    /**
     * Where a recording stands: how far the archive has recorded a run that still records, or where it stopped.
     *
     * @param recordingId the archive's id of the recording.
     * @return stream position, in bytes, at the end of a whole event: a replay may end there.
     * @throws AeronException when the archive cannot be reached or does not know the recording.
     */
    public long recordedPosition(final long recordingId)
    {
        try (AeronArchive client = AeronArchive.connect(archive.clientContext(aeron)))
        {
            return client.getMaxRecordedPosition(recordingId);
        }
    }

    /**
     * Replays a stretch of one recording, whatever run of the shard it holds ({@link #runs}).
     *
     * @param recordingId  the archive's id of the recording.
     * @param fromPosition stream position to replay from, in bytes, at or after the recording's start.
     * @param toPosition   stream position to replay to, exclusive, in bytes, at or before where it has recorded to.
     * @param handler      receives each message replayed, on the calling thread.
     * @return messages replayed, 0 when {@code fromPosition} is at or after {@code toPosition}.
     * @throws AeronException when the archive cannot be reached or refuses the replay, or the replay ends short of
     *                        {@code toPosition} or makes no progress for 10 s.
     */
    public int replayRecording(
        final long recordingId, final long fromPosition, final long toPosition, final FragmentHandler handler)
    {
        this.fromPosition = fromPosition;
        if (fromPosition >= toPosition)
        {
            return 0;
        }
        final Subscription replay;
        try (AeronArchive client = AeronArchive.connect(archive.clientContext(aeron)))
        {
            // The subscription carries the replay's session id: its one image is the replay.
            replay = client.replay(recordingId, fromPosition, toPosition - fromPosition,
                EventArchive.REPLAY_CHANNEL, archive.replayStreamId());
        }
        try (replay)
        {
            return drain(replay, toPosition, handler);
        }
    }

    /** @return the archive's id of the recording last looked up, {@link Aeron#NULL_VALUE} if none was found. */
    public long recordingId()
    {
        return recording.recordingId;
    }

    /** @return the archive's id of the stream's newest recording at the last lookup. */
    public long newestRecordingId()
    {
        return recording.newestRecordingId;
    }

    /** @return the stream position the last replay started from, in bytes. */
    public long fromPosition()
    {
        return fromPosition;
    }

    private int drain(final Subscription replay, final long toPosition, final FragmentHandler handler)
    {
        int replayed = 0;
        long progressNs = System.nanoTime();
        Image image = null;
        idle.reset();
        while (true)
        {
            if (null == image)
            {
                final List<Image> images = replay.images();
                image = images.isEmpty() ? null : images.getFirst();
            }
            if (null != image)
            {
                final int fragments = image.poll(handler, REPLAY_FRAGMENT_LIMIT);
                // Read after every poll: one that takes only a term's padding returns 0 and still moves it.
                final long position = image.position();
                if (position >= toPosition)
                {
                    return replayed + fragments;
                }
                if (fragments > 0)
                {
                    replayed += fragments;
                    progressNs = System.nanoTime();
                    idle.reset();
                    continue;
                }
                if (image.isClosed())
                {
                    throw new AeronException("the replay ended at position " + position + " of " + toPosition +
                        " after " + replayed + " events");
                }
            }
            if (System.nanoTime() - progressNs > REPLAY_STALL_TIMEOUT_NS)
            {
                throw new AeronException("the replay made no progress for 10 s before position " + toPosition +
                    " after " + replayed + " events");
            }
            idle.idle();
        }
    }

    /**
     * The archive's recordings of one event stream: the one of a given session (a run of the shard) with its start
     * position, and the id of the newest of the stream (the latest run).
     */
    private static final class RunRecording implements StreamRecordings.RecordingConsumer
    {
        private int sessionId;
        private long recordingId = Aeron.NULL_VALUE;
        private long startPosition;
        private long newestRecordingId = Aeron.NULL_VALUE;

        void find(final AeronArchive client, final int streamId, final int sessionId)
        {
            this.sessionId = sessionId;
            recordingId = Aeron.NULL_VALUE;
            newestRecordingId = Aeron.NULL_VALUE;
            StreamRecordings.forEach(client, streamId, this);
        }

        @Override
        public void onRecording(
            final long recordingId, final int sessionId, final long startPosition, final long stopPosition)
        {
            // Listed in recording id order: the last one is the newest.
            newestRecordingId = recordingId;
            if (this.sessionId == sessionId)
            {
                this.recordingId = recordingId;
                this.startPosition = startPosition;
            }
        }
    }
}
