package io.bourse.launcher;

/**
 * The process's policy for a thread that dies of an uncaught throwable: it is logged with its stack trace, and when it
 * is an {@link Error} (out of memory, stack overflow, a linkage error) the process exits with status
 * {@value #EXIT_STATUS} (EX_SOFTWARE). Agrona's {@code AgentRunner} counts an agent's exceptions and keeps the agent
 * running, but rethrows an {@code Error}, which ends the agent's thread: without this the service would live on with
 * its agent gone, its container up and its port open but silent. The exit runs the shutdown hooks, so the service's
 * main closes what is still running, as on SIGTERM.
 */
final class FailFast
{
    /** Exit status after an {@link Error} killed a thread: EX_SOFTWARE of sysexits.h. */
    static final int EXIT_STATUS = 70;

    private FailFast()
    {
    }

    /**
     * Makes {@link #handler} the default uncaught exception handler of every thread of this process.
     *
     * @param processName for the log lines, e.g. {@code bourse gateway}.
     */
    static void install(final String processName)
    {
        Thread.setDefaultUncaughtExceptionHandler(handler(processName, () ->
            // Not from the dying thread: System.exit waits for the shutdown hooks, which may wait for this thread.
            new Thread(() -> System.exit(EXIT_STATUS), "fail-fast-exit").start()));
    }

    /**
     * @param processName for the log lines.
     * @param exit        ends the process; run once per {@link Error}.
     * @return a handler that logs the throwable, and runs {@code exit} for an {@link Error}.
     */
    static Thread.UncaughtExceptionHandler handler(final String processName, final Runnable exit)
    {
        return (thread, throwable) ->
        {
            System.err.println("[" + processName + "] thread " + thread.getName() + " died: " + throwable);
            throwable.printStackTrace(System.err);
            if (throwable instanceof Error)
            {
                System.err.println("[" + processName + "] exiting with status " + EXIT_STATUS +
                    ": a thread that dies of an Error leaves the service without it");
                exit.run();
            }
        };
    }
}
