package io.bourse.simulator;

import io.bourse.common.config.Settings;
import org.agrona.concurrent.ShutdownSignalBarrier;

/**
 * The simulator as a program (containers): configured from the environment, runs for the configured duration or
 * until SIGINT/SIGTERM, then prints the summary.
 */
public final class SimulatorMain
{
    private SimulatorMain()
    {
    }

    /**
     * @param args ignored; configuration comes from {@code BOURSE_*} environment variables and system properties.
     */
    public static void main(final String[] args)
    {
        final SimulatorContext ctx = SimulatorContext.fromSettings(Settings.fromEnvironment());
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
            SimulatorService service = SimulatorService.launch(ctx))
        {
            service.completion().whenComplete((report, error) -> barrier.signal());
            barrier.await();
            service.requestStop();
            service.awaitReport().print(ctx.out());
        }
    }
}
