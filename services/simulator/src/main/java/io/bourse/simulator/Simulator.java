package io.bourse.simulator;

/**
 * Runs the simulator to completion, with no way to stop it early: for tests (the launcher's demo and the simulator
 * program use {@link SimulatorService}, which SIGINT can stop).
 */
public final class Simulator
{
    private Simulator()
    {
    }

    /**
     * Connects, sends the configured load for the configured duration, waits a short drain for the answers in
     * flight, and returns the measurements. With a duration of 0 it runs until the thread is stopped; use
     * {@link SimulatorService} to stop such a run.
     *
     * @param ctx the configuration.
     * @return the report of the run.
     * @throws IllegalStateException for a bad setting.
     * @throws java.io.UncheckedIOException when a session cannot connect or log in.
     * @throws java.util.concurrent.CompletionException when the run fails.
     */
    public static SimulatorReport run(final SimulatorContext ctx)
    {
        try (SimulatorService service = SimulatorService.launch(ctx))
        {
            return service.awaitReport();
        }
    }
}
