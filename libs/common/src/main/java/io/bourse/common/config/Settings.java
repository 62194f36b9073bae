package io.bourse.common.config;

import java.util.Locale;
import java.util.Map;

/**
 * Reads one setting from a system property {@code bourse.x.y} or, failing that, from the environment variable
 * {@code BOURSE_X_Y}; containers use the environment, the embedded mode and tests use properties or explicit
 * context fields. A launcher's command-line options, given as overrides, win over both. An empty override, property
 * or variable counts as unset, as the compose file passes {@code ${BOURSE_X_Y:-}} for a setting left to its default.
 */
public final class Settings
{
    private final Map<String, String> overrides;
    private final Map<String, String> environment;

    /**
     * @param environment the environment variables to consult after the system properties (normally
     *                    {@link System#getenv()}).
     */
    public Settings(final Map<String, String> environment)
    {
        this(Map.of(), environment);
    }

    /**
     * @param overrides   settings by environment variable name (e.g. {@code BOURSE_SIMULATOR_RATE}) that win over the
     *                    system properties and the environment: a launcher's command-line options; copied.
     * @param environment the environment variables to consult after the system properties.
     */
    public Settings(final Map<String, String> overrides, final Map<String, String> environment)
    {
        this.overrides = Map.copyOf(overrides);
        this.environment = environment;
    }

    /** @return settings backed by the process environment. */
    public static Settings fromEnvironment()
    {
        return new Settings(System.getenv());
    }

    /**
     * @param propertyName e.g. {@code bourse.gateway.port}; the environment name is derived from it.
     * @param defaultValue returned when neither an override, the property nor the variable is set (or all are empty).
     * @return the configured value.
     */
    public String get(final String propertyName, final String defaultValue)
    {
        final String override = overrides.get(environmentName(propertyName));
        if (null != override && !override.isEmpty())
        {
            return override;
        }
        final String property = System.getProperty(propertyName);
        if (null != property && !property.isEmpty())
        {
            return property;
        }
        final String env = environment.get(environmentName(propertyName));
        return null != env && !env.isEmpty() ? env : defaultValue;
    }

    /**
     * @param propertyName the setting.
     * @param defaultValue returned when unset.
     * @return the value as an int.
     * @throws IllegalArgumentException naming the setting when the value is not an integer or outside the range of
     *                                  an int (-2^31 to 2^31 - 1).
     */
    public int getInt(final String propertyName, final int defaultValue)
    {
        final long value = getLong(propertyName, defaultValue);
        if (value != (int)value)
        {
            throw new IllegalArgumentException(
                propertyName + " (" + environmentName(propertyName) + ") is outside the range of an int: " + value);
        }
        return (int)value;
    }

    /**
     * @param propertyName the setting.
     * @param defaultValue returned when unset.
     * @return the value as a boolean.
     * @throws IllegalArgumentException naming the setting when the value is neither {@code true} nor {@code false}.
     */
    public boolean getBoolean(final String propertyName, final boolean defaultValue)
    {
        final String value = get(propertyName, null);
        if (null == value)
        {
            return defaultValue;
        }
        return switch (value.trim())
        {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(
                propertyName + " (" + environmentName(propertyName) + ") must be true or false: " + value);
        };
    }

    /**
     * @param propertyName the setting.
     * @param defaultValue returned when unset.
     * @return the value as a long.
     * @throws IllegalArgumentException naming the setting when the value is not an integer.
     */
    public long getLong(final String propertyName, final long defaultValue)
    {
        final String value = get(propertyName, null);
        if (null == value)
        {
            return defaultValue;
        }
        try
        {
            return Long.parseLong(value.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(
                propertyName + " (" + environmentName(propertyName) + ") is not an integer: " + value, ex);
        }
    }

    /**
     * @param propertyName e.g. {@code bourse.gateway.port}.
     * @return the matching environment variable name, e.g. {@code BOURSE_GATEWAY_PORT}.
     */
    public static String environmentName(final String propertyName)
    {
        return propertyName.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }
}
