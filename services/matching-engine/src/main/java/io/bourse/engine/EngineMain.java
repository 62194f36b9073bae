package io.bourse.engine;

import io.bourse.common.config.Settings;
import org.agrona.concurrent.ShutdownSignalBarrier;

/** Runs one matching-engine shard configured from the environment until SIGINT or SIGTERM. */
public final class EngineMain
{
    private EngineMain()
    {
    }

    /**
     * @param args ignored; settings come from {@code BOURSE_*} environment variables or {@code bourse.*} properties.
     */
    public static void main(final String[] args)
    {
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
            EngineService ignored = EngineService.launch(EngineContext.fromSettings(Settings.fromEnvironment())))
        {
            barrier.await();
        }
    }
}
