package io.bourse.mdpublisher;

import io.bourse.common.aeron.ArchivingDriverFixture;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Test media driver with the event archive on which an untethered subscriber that stops reading is left behind
 * quickly: IPC terms of 64 KiB (a 32 KiB window), untethered window limit and linger timeouts of
 * {@link #TIMEOUT_NS} (each checked on the driver's 1 s timer).
 */
final class UntetheredDriver
{
    /** The untethered window limit and linger timeouts, in ns: 1.5 s. */
    static final long TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(1_500);

    private UntetheredDriver()
    {
    }

    /**
     * @param name             names the driver's directory, e.g. the test.
     * @param archiveDir       the archive's directory, e.g. a JUnit temporary directory.
     * @param restingTimeoutNs how long a subscriber left behind rests before it joins again, in ns (above 1 s).
     * @return the running driver, archive and client.
     */
    static ArchivingDriverFixture launch(final String name, final Path archiveDir, final long restingTimeoutNs)
    {
        return new ArchivingDriverFixture(name, archiveDir, (context) -> context
            .ipcTermBufferLength(64 * 1024)
            .untetheredWindowLimitTimeoutNs(TIMEOUT_NS)
            .untetheredLingerTimeoutNs(TIMEOUT_NS)
            .untetheredRestingTimeoutNs(restingTimeoutNs));
    }
}
