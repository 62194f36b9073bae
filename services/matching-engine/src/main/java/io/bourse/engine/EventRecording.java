package io.bourse.engine;

import io.aeron.Aeron;
import io.aeron.ChannelUri;
import io.aeron.Publication;
import io.aeron.archive.client.AeronArchive;
import io.aeron.archive.codecs.SourceLocation;
import io.aeron.archive.status.RecordingPos;
import io.bourse.common.aeron.EventArchive;
import org.agrona.concurrent.status.CountersReader;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The {@link EventArchive}'s recording of a shard's event stream: started before the shard publishes its first event,
 * so that the recording holds every event of the stream from position 0, and stopped by the archive when the stream
 * ends (the shard stops). The recorded channel carries the publication's session id, so each run of a shard is a
 * recording of its own, found by that session id. The recordings of every run are kept: together they are the shard's
 * input log, from which its next run recovers ({@link EngineRecovery}); they last as long as the archive's directory.
 */
final class EventRecording
{
    /** How long the archive may take to join the publication once asked. */
    private static final long RECORDING_START_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private final CountersReader counters;
    private final int counterId;
    private final long recordingId;

    private EventRecording(final CountersReader counters, final int counterId, final long recordingId)
    {
        this.counters = counters;
        this.counterId = counterId;
        this.recordingId = recordingId;
    }

    /** @return the recording's id in the archive's catalog. */
    long recordingId()
    {
        return recordingId;
    }

    /**
     * @return true while the archive records the stream: its recording position counter is still the recording's; a
     *         few reads of the media driver's counters, no allocation, any thread.
     */
    boolean isActive()
    {
        return RecordingPos.isActive(counters, counterId, recordingId);
    }

    /**
     * Asks the archive to record the publication and waits until its recording counter shows that it records.
     *
     * @param aeron   the shard's client.
     * @param archive the event archive (enabled).
     * @param events  the shard's event publication, nothing published on it yet.
     * @return the recording, watched through its position counter.
     * @throws io.aeron.exceptions.TimeoutException    when the archive does not answer its control requests.
     * @throws io.aeron.archive.client.ArchiveException when the archive refuses the recording.
     * @throws IllegalStateException                    when the recording has not started within 10 s (it is
     *                                                  stopped).
     */
    static EventRecording start(final Aeron aeron, final EventArchive archive, final Publication events)
    {
        try (AeronArchive client = AeronArchive.connect(archive.clientContext(aeron)))
        {
            final String channel = ChannelUri.addSessionId(events.channel(), events.sessionId());
            final long subscriptionId = client.startRecording(channel, events.streamId(), SourceLocation.LOCAL, true);
            final CountersReader counters = aeron.countersReader();
            final long deadline = System.nanoTime() + RECORDING_START_TIMEOUT_NS;
            int counterId;
            while (CountersReader.NULL_COUNTER_ID ==
                (counterId = RecordingPos.findCounterIdBySession(counters, events.sessionId(), client.archiveId())))
            {
                if (System.nanoTime() - deadline > 0)
                {
                    client.tryStopRecording(subscriptionId);
                    throw new IllegalStateException("the event archive has not started recording stream " +
                        events.streamId() + " session " + events.sessionId() + " within 10 s");
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            return new EventRecording(counters, counterId, RecordingPos.getRecordingId(counters, counterId));
        }
    }
}
