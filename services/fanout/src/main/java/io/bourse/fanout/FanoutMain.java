package io.bourse.fanout;

import io.bourse.common.config.Settings;
import org.agrona.concurrent.ShutdownSignalBarrier;

/** Runs the fanout as its own process, configured from the environment, until SIGINT or SIGTERM. */
public final class FanoutMain
{
    private FanoutMain()
    {
    }

    /**
     * @param args ignored; configuration comes from {@code BOURSE_*} environment variables and system properties.
     */
    public static void main(final String[] args)
    {
        final FanoutService service = FanoutService.launch(FanoutContext.fromSettings(Settings.fromEnvironment()));
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier(); service)
        {
            barrier.await();
        }
    }
}
