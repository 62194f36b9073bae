package io.bourse.common.config;

/**
 * The range checks of the services' contexts ({@code conclude()}): each names the setting (its property name, e.g.
 * {@code bourse.gateway.port}) and the value that broke it, so that a bad setting stops the service at start with a
 * message the operator can act on.
 */
public final class SettingChecks
{
    /** Highest TCP or UDP port. */
    public static final int MAX_PORT = 65535;

    private SettingChecks()
    {
    }

    /**
     * @param name  the setting.
     * @param value its value.
     * @param min   lowest allowed.
     * @param max   highest allowed.
     * @throws IllegalStateException {@code "<name> must be <min>..<max>: <value>"} when the value is outside.
     */
    public static void checkRange(final String name, final long value, final long min, final long max)
    {
        if (value < min || value > max)
        {
            throw new IllegalStateException(name + " must be " + min + ".." + max + ": " + value);
        }
    }

    /**
     * @param name  the setting.
     * @param value a port to listen on; 0 picks a free one.
     * @throws IllegalStateException {@code "<name> must be 0..65535: <value>"} when the value is outside.
     */
    public static void checkPort(final String name, final int value)
    {
        checkRange(name, value, 0, MAX_PORT);
    }

    /**
     * @param name  the setting.
     * @param value its value.
     * @throws IllegalStateException {@code "<name> must be positive: <value>"} when the value is 0 or less.
     */
    public static void checkPositive(final String name, final long value)
    {
        if (value <= 0)
        {
            throw new IllegalStateException(name + " must be positive: " + value);
        }
    }
}
