package io.bourse.mdpublisher;

import io.bourse.common.config.Settings;
import org.agrona.concurrent.ShutdownSignalBarrier;

/** Runs the md-publisher as its own process, configured from the environment, until SIGINT or SIGTERM. */
public final class MdPublisherMain
{
    private MdPublisherMain()
    {
    }

    /**
     * @param args ignored; configuration comes from {@code BOURSE_*} environment variables and system properties.
     */
    public static void main(final String[] args)
    {
        final MdPublisherService service = MdPublisherService.launch(
            MdPublisherContext.fromSettings(Settings.fromEnvironment()));
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier(); service)
        {
            barrier.await();
        }
    }
}
