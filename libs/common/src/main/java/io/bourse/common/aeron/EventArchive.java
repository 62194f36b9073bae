package io.bourse.common.aeron;

import io.aeron.Aeron;
import io.aeron.archive.Archive;
import io.aeron.archive.ArchiveThreadingMode;
import io.aeron.archive.client.AeronArchive;
import io.bourse.common.config.Settings;
import org.agrona.concurrent.SleepingMillisIdleStrategy;

import java.nio.file.Path;
import java.util.concurrent.ThreadFactory;

/**
 * The Aeron Archive that records the engine shards' event streams, so that a service started while a shard runs (a
 * restarted order gateway or md-publisher) can replay the events it did not hear ({@link EventReplay}). The archive
 * runs in the media driver's process and is reached on its local control channel only: requests on
 * {@value #CONTROL_CHANNEL} stream {@value AeronArchive.Configuration#LOCAL_CONTROL_STREAM_ID_DEFAULT}, responses on
 * {@value #CONTROL_CHANNEL} stream {@value AeronArchive.Configuration#CONTROL_RESPONSE_STREAM_ID_DEFAULT} (Aeron's
 * defaults; the network control channel is off, as nothing off the host asks). Each engine shard records its own event
 * publication (the channel with its session id: a restarted engine's stream is a new recording); replays go to
 * {@value #REPLAY_CHANNEL} on the replay stream id, each replay told apart by its own session id.
 * <p>
 * Settings: {@value #ENABLED_PROP_NAME} (default false: the embedded mode runs every service in one process, none
 * restarts alone; the compose file and the integration tests' containers turn it on for the media driver, the engine
 * shards, the order gateway and the md-publisher alike), {@value #DIR_PROP_NAME} (default {@code bourse-archive} under
 * {@code java.io.tmpdir}; the archive keeps its catalog and recordings in its subdirectory {@value #RECORDINGS_DIR},
 * which the media driver deletes when it starts, as the streams it holds end with the driver: only that subdirectory,
 * so the setting may name a volume's mount point or a shared directory) and {@value #REPLAY_STREAM_PROP_NAME} (default
 * {@value #REPLAY_STREAM_DEFAULT}).
 *
 * @param enabled        true when the media driver runs the archive, the engine shards record, and the gateway and
 *                       the md-publisher replay.
 * @param directory      the directory of the archive's {@value #RECORDINGS_DIR} subdirectory, in the media driver's
 *                       file system.
 * @param replayStreamId stream id of the replays on {@value #REPLAY_CHANNEL}.
 */
public record EventArchive(boolean enabled, String directory, int replayStreamId)
{
    /** Setting that turns the archive on. */
    public static final String ENABLED_PROP_NAME = "bourse.archive.enabled";
    /** Setting of the archive's directory. */
    public static final String DIR_PROP_NAME = "bourse.archive.dir";
    /** Setting of the replay stream id. */
    public static final String REPLAY_STREAM_PROP_NAME = "bourse.archive.replay.stream";
    /** Default replay stream id. */
    public static final int REPLAY_STREAM_DEFAULT = 4000;
    /** Subdirectory of {@link #directory()} that holds the archive's catalog and recordings, deleted at start. */
    public static final String RECORDINGS_DIR = "recordings";
    /** Channel of the archive's control requests and responses: one host. */
    public static final String CONTROL_CHANNEL = "aeron:ipc?term-length=64k";
    /** Channel the replays are sent on. */
    public static final String REPLAY_CHANNEL = "aeron:ipc";
    /** How long the archive's thread sleeps when it finds no work, in ms. */
    public static final long IDLE_SLEEP_MS = 1;
    /** No archive: the services run without recording or replaying, as in the embedded mode and most tests. */
    public static final EventArchive DISABLED = new EventArchive(false, defaultDirectory(), REPLAY_STREAM_DEFAULT);

    /**
     * @param settings source of {@value #ENABLED_PROP_NAME}, {@value #DIR_PROP_NAME} and
     *                 {@value #REPLAY_STREAM_PROP_NAME}.
     * @return the configured archive.
     */
    public static EventArchive fromSettings(final Settings settings)
    {
        return new EventArchive(
            settings.getBoolean(ENABLED_PROP_NAME, false),
            settings.get(DIR_PROP_NAME, defaultDirectory()),
            settings.getInt(REPLAY_STREAM_PROP_NAME, REPLAY_STREAM_DEFAULT));
    }

    /**
     * The archive's own configuration, for {@link io.aeron.archive.ArchivingMediaDriver#launch}: one thread for its
     * conductor, recorder and replayer ({@link ArchiveThreadingMode#SHARED}, as the driver's on a 2-core host), no
     * network control channel, no recording events, the {@value #RECORDINGS_DIR} subdirectory deleted at start.
     *
     * @param threadFactory makes the archive's thread (its CPUs, see {@link ThreadAffinity}).
     * @return a new archive context.
     */
    public Archive.Context archiveContext(final ThreadFactory threadFactory)
    {
        return new Archive.Context()
            .archiveDirectoryName(Path.of(directory, RECORDINGS_DIR).toString())
            .deleteArchiveOnStart(true)
            .threadingMode(ArchiveThreadingMode.SHARED)
            .threadFactory(threadFactory)
            .idleStrategySupplier(() -> new SleepingMillisIdleStrategy(IDLE_SLEEP_MS))
            .controlChannelEnabled(false)
            .localControlChannel(CONTROL_CHANNEL)
            .localControlStreamId(AeronArchive.Configuration.LOCAL_CONTROL_STREAM_ID_DEFAULT)
            .recordingEventsEnabled(false)
            // Required even when unused: nothing here replicates recordings from another archive.
            .replicationChannel("aeron:udp?endpoint=localhost:0")
            .archiveClientContext(new AeronArchive.Context().controlResponseChannel(CONTROL_CHANNEL));
    }

    /**
     * @param aeron the service's client, shared with the archive client (not closed by it).
     * @return a new context for {@link AeronArchive#connect(AeronArchive.Context)} to this host's archive.
     */
    public AeronArchive.Context clientContext(final Aeron aeron)
    {
        return new AeronArchive.Context()
            .aeron(aeron)
            .ownsAeronClient(false)
            .controlRequestChannel(CONTROL_CHANNEL)
            .controlRequestStreamId(AeronArchive.Configuration.LOCAL_CONTROL_STREAM_ID_DEFAULT)
            .controlResponseChannel(CONTROL_CHANNEL)
            .controlResponseStreamId(AeronArchive.Configuration.CONTROL_RESPONSE_STREAM_ID_DEFAULT);
    }

    private static String defaultDirectory()
    {
        return Path.of(System.getProperty("java.io.tmpdir"), "bourse-archive").toString();
    }
}
