package io.bourse.common.aeron;

import io.aeron.Aeron;
import io.aeron.ChannelUri;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.archive.client.AeronArchive;
import io.aeron.archive.codecs.SourceLocation;
import io.aeron.archive.status.RecordingPos;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.bourse.common.Await.awaitTrue;

/**
 * Runs of engine shards' event streams, recorded in a test's event archive as the engine records them: for the tests of
 * the services that catch up from the archive (md-publisher, order gateway).
 */
public final class RecordedRuns implements AutoCloseable
{
    private final Aeron aeron;
    private final StreamLayout layout;
    private final AeronArchive archiveClient;
    private final Path recordingsDir;

    /**
     * @param driver the test's archiving media driver: its client, its streams and its event archive, which a client of
     *               its own records the runs in (closed by {@link #close()}).
     */
    public RecordedRuns(final ArchivingDriverFixture driver)
    {
        this.aeron = driver.aeron();
        this.layout = driver.layout();
        this.archiveClient = AeronArchive.connect(driver.archive().clientContext(aeron));
        this.recordingsDir = Path.of(driver.archive().directory(), EventArchive.RECORDINGS_DIR);
    }

    /** @return the client of the event archive that records the runs, for a test's own archive requests. */
    public AeronArchive archiveClient()
    {
        return archiveClient;
    }

    @Override
    public void close()
    {
        archiveClient.close();
    }

    /**
     * @param shardId the shard.
     * @return a new run's event publication, recorded by the archive before anything is published on it, as
     *         EventRecording does.
     */
    public ExclusivePublication start(final int shardId)
    {
        final ExclusivePublication publication =
            aeron.addExclusivePublication(layout.eventChannel(), layout.eventStreamId(shardId));
        archiveClient.startRecording(ChannelUri.addSessionId(publication.channel(), publication.sessionId()),
            publication.streamId(), SourceLocation.LOCAL);
        final CountersReader counters = aeron.countersReader();
        awaitTrue(() -> CountersReader.NULL_COUNTER_ID !=
            RecordingPos.findCounterIdBySession(counters, publication.sessionId(), archiveClient.archiveId()));
        return publication;
    }

    /**
     * A subscription like a service's that starts while the shard's run is under way: an IPC image joins where the
     * stream's readers stand, which the media driver updates on its own cycle, so one that joined at the start is
     * closed and the subscription made again.
     *
     * @param shardId the shard.
     * @return a subscription to the shard's events whose one image joined past the stream's start.
     */
    public Subscription subscribePastTheStart(final int shardId)
    {
        return subscribePastTheStart(aeron, layout, shardId);
    }

    /**
     * {@link #subscribePastTheStart(int)} through any client, e.g. of a media driver without an archive.
     *
     * @param aeron   the client.
     * @param layout  the streams of the client's media driver.
     * @param shardId the shard.
     * @return a subscription to the shard's events whose one image joined past the stream's start.
     */
    public static Subscription subscribePastTheStart(final Aeron aeron, final StreamLayout layout, final int shardId)
    {
        while (true)
        {
            final Subscription subscription =
                aeron.addSubscription(layout.eventChannel(), layout.eventStreamId(shardId));
            awaitTrue(() -> subscription.imageCount() == 1);
            if (subscription.imageAtIndex(0).joinPosition() > 0)
            {
                return subscription;
            }
            subscription.close();
        }
    }

    /**
     * Waits until the archive has recorded everything published on the run's publication.
     *
     * @return the recording's position counter.
     */
    public int awaitRecorded(final ExclusivePublication publication)
    {
        final CountersReader counters = aeron.countersReader();
        final int recordingPosition =
            RecordingPos.findCounterIdBySession(counters, publication.sessionId(), archiveClient.archiveId());
        awaitTrue(() -> counters.getCounterValue(recordingPosition) >= publication.position());
        return recordingPosition;
    }

    /**
     * Stops the run, once everything it published is recorded, and waits until its recording has stopped.
     *
     * @param publication the run's event publication.
     * @return the archive's id of the run's recording.
     */
    public long stop(final ExclusivePublication publication)
    {
        final long recordingId = RecordingPos.getRecordingId(aeron.countersReader(), awaitRecorded(publication));
        publication.close();
        awaitTrue(() -> AeronArchive.NULL_POSITION != archiveClient.getStopPosition(recordingId));
        return recordingId;
    }

    /**
     * Stops the run ({@link #stop}), then deletes its recording's segment files, as by hand: the archive still lists
     * the recording, and a replay of it fails ("recording segment file not created").
     *
     * @param publication the run's event publication.
     * @throws IOException when a segment file cannot be deleted.
     */
    public void stopAndDamage(final ExclusivePublication publication) throws IOException
    {
        final long recordingId = stop(publication);
        try (DirectoryStream<Path> segments = Files.newDirectoryStream(recordingsDir, recordingId + "-*.rec"))
        {
            for (final Path segment : segments)
            {
                Files.delete(segment);
            }
        }
    }
}
