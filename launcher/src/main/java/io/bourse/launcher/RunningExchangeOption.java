package io.bourse.launcher;

import io.aeron.Aeron;
import io.aeron.CncFileDescriptor;
import io.aeron.exceptions.DriverTimeoutException;
import io.bourse.common.aeron.StreamLayout;
import picocli.CommandLine.Option;

import java.io.File;
import java.util.Map;

/**
 * The {@code --aeron-dir} of the commands that talk to a running exchange ({@code bourse admin}, {@code bourse feed}):
 * where its media driver is, and how to connect to it.
 */
final class RunningExchangeOption
{
    @Option(names = "--aeron-dir", paramLabel = "DIR",
        description = "Media driver directory of the running exchange (default: $BOURSE_AERON_DIR or " +
            StreamLayout.AERON_DIR_DEFAULT + "; ./bourse exchange prints its own).")
    String aeronDir;

    /**
     * @param options the command's settings that win over the system properties and the environment
     *                ({@link io.bourse.common.config.Settings}): gets {@code BOURSE_AERON_DIR} when {@code --aeron-dir}
     *                is given.
     */
    void putInto(final Map<String, String> options)
    {
        if (null != aeronDir)
        {
            options.put("BOURSE_AERON_DIR", aeronDir);
        }
    }

    /**
     * Connects to the media driver with Aeron's own driver timeout (the driver's heartbeat may lag on a busy host);
     * a directory without a driver's CnC file, or with one this user may not read and write, fails at once.
     *
     * @param layout where the driver is.
     * @return the connected client.
     * @throws IllegalStateException when no media driver runs there, or its CnC file is another user's.
     */
    static Aeron connect(final StreamLayout layout)
    {
        final String noDriver = "no media driver at " + layout.aeronDirectoryName() +
            " (--aeron-dir or BOURSE_AERON_DIR): is the exchange running?";
        final File cnc = new File(layout.aeronDirectoryName(), CncFileDescriptor.CNC_FILE);
        if (!cnc.exists())
        {
            throw new IllegalStateException(noDriver);
        }
        if (!cnc.canRead() || !cnc.canWrite())
        {
            // Aeron's connect would wait for good for a CnC file it may not map (a driver run by another user: the
            // compose stack's containers run as root), whatever the command's own timeout.
            throw new IllegalStateException("the media driver's " + cnc + " is not readable and writable by this " +
                "user: run the command as the user the media driver runs as (root for the compose stack)");
        }
        try
        {
            return Aeron.connect(new Aeron.Context().aeronDirectoryName(layout.aeronDirectoryName()));
        }
        catch (final DriverTimeoutException ex)
        {
            throw new IllegalStateException(noDriver, ex);
        }
    }
}
