package io.bourse.engine;

import io.aeron.Aeron;
import io.aeron.archive.ArchivingMediaDriver;
import io.aeron.archive.client.AeronArchive;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.EventArchive;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.aeron.StreamRecordings;
import io.bourse.common.config.SymbolDirectory;
import org.agrona.CloseHelper;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A real shard recording its event stream in a real Aeron Archive, run by an archiving embedded media driver. */
@Timeout(30)
class EventRecordingTest
{
    private static final int SHARD = 1;

    @TempDir
    private Path archiveDir;
    private EventArchive archive;
    private ArchivingMediaDriver driver;
    private StreamLayout layout;
    private Aeron aeron;

    private record Recording(long recordingId, int sessionId, long stopPosition)
    {
    }

    @BeforeEach
    void setUp()
    {
        archive = new EventArchive(true, archiveDir.toString(), EventArchive.REPLAY_STREAM_DEFAULT);
        driver = EmbeddedMediaDriver.launchWithArchive("event-recording-test", archive);
        layout = EmbeddedMediaDriver.defaultLayout(driver.mediaDriver());
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.mediaDriver().aeronDirectoryName()));
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(aeron, driver);
    }

    @Test
    void shouldRecordEachRunOfTheShardAndPurgeTheEarlierRunsWhenANewOneStarts() throws Exception
    {
        try (EngineService ignored = launchShard())
        {
            assertThat(recordings()).singleElement().satisfies((recording) ->
                assertThat(recording.stopPosition()).isEqualTo(AeronArchive.NULL_POSITION));
        }
        final Recording first = awaitStopped();

        try (EngineService ignored = launchShard())
        {
            assertThat(recordings()).singleElement().satisfies((recording) ->
            {
                assertThat(recording.recordingId()).isGreaterThan(first.recordingId());
                assertThat(recording.sessionId()).isNotEqualTo(first.sessionId());
                assertThat(recording.stopPosition()).isEqualTo(AeronArchive.NULL_POSITION);
            });
        }
    }

    private EngineService launchShard()
    {
        return EngineService.launch(new EngineContext()
            .shardId(SHARD)
            .metricsPort(0)
            .jvmMetrics(false)
            .streamLayout(layout)
            .symbolDirectory(SymbolDirectory.parse("AAPL@1,MSFT@0"))
            .eventArchive(archive)
            .idleStrategy(new SleepingMillisIdleStrategy(1)));
    }

    /** The archive stops the recording once it sees the closed shard's stream end. */
    private Recording awaitStopped() throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true)
        {
            final List<Recording> recordings = recordings();
            assertThat(recordings).hasSize(1);
            if (AeronArchive.NULL_POSITION != recordings.getFirst().stopPosition())
            {
                return recordings.getFirst();
            }
            assertThat(System.nanoTime()).as("recording stopped").isLessThan(deadlineNs);
            Thread.sleep(10);
        }
    }

    private List<Recording> recordings()
    {
        final List<Recording> recordings = new ArrayList<>();
        try (AeronArchive client = AeronArchive.connect(archive.clientContext(aeron)))
        {
            StreamRecordings.forEach(client, layout.eventStreamId(SHARD),
                (recordingId, sessionId, startPosition, stopPosition) ->
                recordings.add(new Recording(recordingId, sessionId, stopPosition)));
        }
        return recordings;
    }
}
