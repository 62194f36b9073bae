package io.bourse.gateway;

import io.bourse.common.config.Settings;
import org.agrona.concurrent.ShutdownSignalBarrier;

/** Runs the order gateway until SIGINT or SIGTERM. */
public final class GatewayMain
{
    private GatewayMain()
    {
    }

    /**
     * @param args ignored; settings come from {@code BOURSE_*} environment variables or {@code bourse.*} properties.
     */
    public static void main(final String[] args)
    {
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
            GatewayService ignored = GatewayService.launch(GatewayContext.fromSettings(Settings.fromEnvironment())))
        {
            barrier.await();
        }
    }
}
