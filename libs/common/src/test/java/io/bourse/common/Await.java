package io.bourse.common;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Test fixture: waits, yielding (or sleeping 1 ms between checks), for a condition that threads of the service under
 * test make true. It gives up with an {@link AssertionError} after {@value #TIMEOUT_SECONDS} s, within most tests' own
 * 30 s timeouts: a spin does not answer the interrupt with which JUnit times a test out, so an unbounded wait would
 * hang the build (a test with a shorter timeout is failed by it once the wait gives up).
 */
public final class Await
{
    /** Longest wait for a condition. */
    public static final long TIMEOUT_SECONDS = 20;

    /** Assertions on what the service under test exposes, such as a scrape of its metrics. */
    @FunctionalInterface
    public interface Check
    {
        /**
         * @throws AssertionError while what it checks does not hold yet.
         * @throws Exception      when it cannot read what it checks: ends the wait.
         */
        void run() throws Exception;
    }

    private Await()
    {
    }

    /**
     * Calls the condition until it is true; it may also do work, such as polling the subscriptions it checks.
     *
     * @param condition checked, then checked again after a yield, until true.
     * @throws AssertionError when it is still false after {@value #TIMEOUT_SECONDS} s.
     */
    public static void awaitTrue(final BooleanSupplier condition)
    {
        awaitTrue(condition, () -> "condition");
    }

    /**
     * Calls the condition until it is true, as {@link #awaitTrue(BooleanSupplier)}, and names what was awaited and
     * what was found when it gives up.
     *
     * @param condition   checked, then checked again after a yield, until true.
     * @param description what the condition waits for and what it finds, read once when it gives up.
     * @throws AssertionError with the description when it is still false after {@value #TIMEOUT_SECONDS} s.
     */
    public static void awaitTrue(final BooleanSupplier condition, final Supplier<String> description)
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new AssertionError(description.get() + " still false after " + TIMEOUT_SECONDS + " s");
            }
            Thread.yield();
        }
    }

    /**
     * Runs the check until it passes: for counters a service's thread updates just after the output a test has seen
     * (a message sent, then counted), which a check made at once can find one short.
     *
     * @param check assertions, run again after a millisecond while they fail.
     * @throws AssertionError the check's last when it still fails after {@value #TIMEOUT_SECONDS} s.
     * @throws Exception      what the check throws other than an AssertionError, at once.
     */
    public static void awaitAsserted(final Check check) throws Exception
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (true)
        {
            try
            {
                check.run();
                return;
            }
            catch (final AssertionError ex)
            {
                if (System.nanoTime() - deadlineNs > 0)
                {
                    throw ex;
                }
            }
            Thread.sleep(1);
        }
    }
}
