package io.bourse.common;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Test fixture: waits, yielding, for a condition that threads of the service under test make true. It gives up
 * with an {@link AssertionError} after {@value #TIMEOUT_SECONDS} s, within the tests' own 30 s timeouts: a spin
 * does not answer the interrupt with which JUnit times a test out, so an unbounded wait would hang the build.
 */
public final class Await
{
    /** Longest wait for a condition. */
    public static final long TIMEOUT_SECONDS = 20;

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
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new AssertionError("condition still false after " + TIMEOUT_SECONDS + " s");
            }
            Thread.yield();
        }
    }
}
