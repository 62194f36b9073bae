package io.bourse.launcher;

import io.aeron.Aeron;
import io.aeron.archive.ArchivingMediaDriver;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.bourse.common.aeron.EventArchive;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.aeron.ThreadAffinity;
import io.bourse.common.config.Settings;
import io.bourse.common.metrics.AeronCountersCollector;
import io.bourse.common.metrics.MetricsServer;
import io.bourse.common.metrics.Readiness;
import org.agrona.CloseHelper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

/**
 * The host's Aeron media driver with its counters (back pressure, NAKs, loss, errors, stream positions) served on a
 * Prometheus endpoint. Settings: {@code bourse.driver.threading} (Aeron threading mode, default {@code SHARED}, the
 * right choice on a 2-core host), {@code bourse.driver.ipc.term.length} (term length of the {@code aeron:ipc}
 * publications in bytes, a power of two from 64 KiB to 1 GiB, default {@link StreamLayout#IPC_TERM_LENGTH_DEFAULT}),
 * {@code bourse.driver.untethered.timeout.ms} (how long an untethered subscriber, the md-publisher's with the event
 * archive on, may lag a term window behind before the driver leaves it behind, and how long it then lingers, still
 * holding the publication: Aeron's untethered window limit and linger timeouts, default
 * {@value #UNTETHERED_TIMEOUT_MS_DEFAULT}, where Aeron's are 5 and 5 s),
 * {@code bourse.driver.untethered.resting.timeout.ms} (how long it then rests before it joins again, Aeron's untethered
 * resting timeout, default {@value #UNTETHERED_RESTING_TIMEOUT_MS_DEFAULT}, as Aeron's: a subscriber still busy when it
 * joins, e.g. with a long catch-up, holds the publication again, so the longer the rest the less of a long stall the
 * publication is held for; all three above the driver's 1 s timer interval, which checks them, else the driver does
 * not start),
 * {@code bourse.driver.metrics.port} (default 9400), and the driver threads' CPUs in
 * {@value ThreadAffinity#THREAD_AFFINITY_PROP_NAME} under the roles {@value #CONDUCTOR_ROLE}, {@value #SENDER_ROLE}
 * and {@value #RECEIVER_ROLE} (Aeron's own names of those agents, with {@code DEDICATED} threading),
 * {@value #SHARED_ROLE} (the one thread of {@code SHARED} threading), {@value #SHARED_NETWORK_ROLE} (the sender
 * and receiver's thread with {@code SHARED_NETWORK} threading) and {@value #ARCHIVE_ROLE} (the Aeron Archive's one
 * thread).
 * With {@link EventArchive#ENABLED_PROP_NAME} the driver also runs the {@link EventArchive} that the engine shards
 * record their event streams in.
 */
public final class MediaDriverService implements AutoCloseable
{
    /** Default of {@code bourse.driver.untethered.timeout.ms}, in ms. */
    public static final long UNTETHERED_TIMEOUT_MS_DEFAULT = 2_000;
    /** Default of {@code bourse.driver.untethered.resting.timeout.ms}, in ms. */
    public static final long UNTETHERED_RESTING_TIMEOUT_MS_DEFAULT = 10_000;
    /** Default Prometheus port of the media driver's counters. */
    public static final int METRICS_PORT_DEFAULT = 9400;
    /** Role of the driver conductor's thread, as Aeron names its agent. */
    public static final String CONDUCTOR_ROLE = "driver-conductor";
    /** Role of the sender's thread, as Aeron names its agent. */
    public static final String SENDER_ROLE = "sender";
    /** Role of the receiver's thread, as Aeron names its agent. */
    public static final String RECEIVER_ROLE = "receiver";
    /** Role of the thread running conductor, sender and receiver in {@code SHARED} threading. */
    public static final String SHARED_ROLE = "driver-shared";
    /** Role of the thread running sender and receiver in {@code SHARED_NETWORK} threading. */
    public static final String SHARED_NETWORK_ROLE = "driver-shared-network";
    /** Role of the Aeron Archive's thread, when it runs. */
    public static final String ARCHIVE_ROLE = "archive";

    /** The driver, with the archive when it runs. */
    private final AutoCloseable driver;
    private final Aeron aeron;
    private final MetricsServer metricsServer;

    private MediaDriverService(final AutoCloseable driver, final Aeron aeron, final MetricsServer metricsServer)
    {
        this.driver = driver;
        this.aeron = aeron;
        this.metricsServer = metricsServer;
    }

    /**
     * Launches a media driver on a directory, deleting what a previous run left there, with the event archive when it
     * is enabled (its recordings of a previous run deleted too).
     *
     * @param aeronDirectoryName the driver directory, e.g. {@code /dev/shm/aeron-bourse}.
     * @param threadingMode      Aeron threading mode.
     * @param ipcTermLength      term length of the {@code aeron:ipc} publications in bytes.
     * @param untethered         the untethered subscribers' timeouts.
     * @param metricsPort        Prometheus port, or -1 for no endpoint.
     * @param jvmMetrics         true to export JVM metrics on the endpoint.
     * @param threadAffinity     the CPUs of the driver's threads, by role.
     * @param archive            the event archive, run when enabled.
     * @return the running driver.
     * @throws UncheckedIOException when the metrics port cannot be bound.
     * @throws io.aeron.exceptions.ConfigurationException when the term length is not a power of two from 64 KiB to
     *                                                    1 GiB, or an untethered timeout not above 1 s.
     */
    public static MediaDriverService launch(
        final String aeronDirectoryName, final ThreadingMode threadingMode, final int ipcTermLength,
        final UntetheredTimeouts untethered, final int metricsPort, final boolean jvmMetrics,
        final ThreadAffinity threadAffinity,
        final EventArchive archive)
    {
        final MediaDriver.Context driverContext = new MediaDriver.Context()
            .aeronDirectoryName(aeronDirectoryName)
            .threadingMode(threadingMode)
            .ipcTermBufferLength(ipcTermLength)
            .untetheredWindowLimitTimeoutNs(untethered.timeoutNs())
            .untetheredLingerTimeoutNs(untethered.timeoutNs())
            .untetheredRestingTimeoutNs(untethered.restingTimeoutNs());
        // The roles of this threading mode's threads only: an entry for a role the driver does not run is not checked
        // against the process's CPUs (one BOURSE_THREAD_AFFINITY serves every container).
        switch (threadingMode)
        {
            case DEDICATED -> driverContext
                .conductorThreadFactory(threadAffinity.threadFactory(CONDUCTOR_ROLE))
                .senderThreadFactory(threadAffinity.threadFactory(SENDER_ROLE))
                .receiverThreadFactory(threadAffinity.threadFactory(RECEIVER_ROLE));
            case SHARED_NETWORK -> driverContext
                .conductorThreadFactory(threadAffinity.threadFactory(CONDUCTOR_ROLE))
                .sharedNetworkThreadFactory(threadAffinity.threadFactory(SHARED_NETWORK_ROLE));
            case SHARED -> driverContext.sharedThreadFactory(threadAffinity.threadFactory(SHARED_ROLE));
            case INVOKER ->
            {
                // No thread of its own: whoever launches it runs its invoker (nothing in Bourse does).
            }
        }
        driverContext
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .termBufferSparseFile(true);
        final AutoCloseable driver = archive.enabled() ? ArchivingMediaDriver.launch(
            driverContext, archive.archiveContext(threadAffinity.threadFactory(ARCHIVE_ROLE))) :
            MediaDriver.launch(driverContext);
        final Aeron aeron = Aeron.connect(
            new Aeron.Context().aeronDirectoryName(aeronDirectoryName).clientName("media-driver"));
        MetricsServer metricsServer = null;
        if (metricsPort >= 0)
        {
            try
            {
                metricsServer = MetricsServer.start(metricsPort, jvmMetrics);
            }
            catch (final IOException ex)
            {
                CloseHelper.closeAll(aeron, driver);
                throw new UncheckedIOException("bourse.driver.metrics.port=" + metricsPort, ex);
            }
            metricsServer.registry().register(new AeronCountersCollector(aeron.countersReader()));
            metricsServer.readiness(Readiness.READY);
        }
        System.out.println("media-driver started: " + aeronDirectoryName + ", threading " + threadingMode +
            ", ipc term length " + ipcTermLength + ", untethered timeouts " +
            TimeUnit.NANOSECONDS.toMillis(untethered.timeoutNs()) + " ms, rest " +
            TimeUnit.NANOSECONDS.toMillis(untethered.restingTimeoutNs()) + " ms" +
            (archive.enabled() ? ", event archive " + archive.directory() : "") +
            (null == metricsServer ? "" : ", metrics :" + metricsServer.port()));
        return new MediaDriverService(driver, aeron, metricsServer);
    }

    /**
     * @param settings source of the driver settings, of the directory ({@code bourse.aeron.dir}) and of the
     *                 {@link EventArchive}.
     * @return the running driver.
     */
    public static MediaDriverService launch(final Settings settings)
    {
        return launch(
            StreamLayout.fromSettings(settings).aeronDirectoryName(),
            ThreadingMode.valueOf(settings.get("bourse.driver.threading", ThreadingMode.SHARED.name())),
            settings.getInt("bourse.driver.ipc.term.length", StreamLayout.IPC_TERM_LENGTH_DEFAULT),
            new UntetheredTimeouts(
                TimeUnit.MILLISECONDS.toNanos(
                    settings.getLong("bourse.driver.untethered.timeout.ms", UNTETHERED_TIMEOUT_MS_DEFAULT)),
                TimeUnit.MILLISECONDS.toNanos(settings.getLong(
                    "bourse.driver.untethered.resting.timeout.ms", UNTETHERED_RESTING_TIMEOUT_MS_DEFAULT))),
            settings.getInt("bourse.driver.metrics.port", METRICS_PORT_DEFAULT),
            MetricsServer.jvmMetrics(settings),
            ThreadAffinity.fromSettings(settings),
            EventArchive.fromSettings(settings));
    }

    /**
     * The media driver's timeouts of untethered subscribers, each above its 1 s timer interval.
     *
     * @param timeoutNs        how long one may lag a term window behind before it is left behind, and then lingers, in
     *                         ns: Aeron's untethered window limit and linger timeouts.
     * @param restingTimeoutNs how long one left behind rests before it joins again, in ns.
     */
    public record UntetheredTimeouts(long timeoutNs, long restingTimeoutNs)
    {
        /**
         * The defaults: {@value MediaDriverService#UNTETHERED_TIMEOUT_MS_DEFAULT} ms, then a rest of
         * {@value MediaDriverService#UNTETHERED_RESTING_TIMEOUT_MS_DEFAULT} ms.
         */
        public static final UntetheredTimeouts DEFAULT = new UntetheredTimeouts(
            TimeUnit.MILLISECONDS.toNanos(UNTETHERED_TIMEOUT_MS_DEFAULT),
            TimeUnit.MILLISECONDS.toNanos(UNTETHERED_RESTING_TIMEOUT_MS_DEFAULT));
    }

    /** Stops the metrics endpoint, the driver's own client and the driver. */
    @Override
    public void close()
    {
        CloseHelper.closeAll(metricsServer, aeron, driver);
    }
}
