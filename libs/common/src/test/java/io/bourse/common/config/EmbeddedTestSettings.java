package io.bourse.common.config;

import java.io.File;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Settings of an embedded exchange for a test (environment-variable names, as {@link Settings} reads them): an Aeron
 * directory of its own, every TCP port (OUCH, ITCH, the metrics endpoints) free ones (0), no MoldUDP64 multicast, one
 * engine shard with AAPL, and the users of {@code deploy/credentials.csv}, for a test run from a module directory one
 * level below the repository's root.
 */
public final class EmbeddedTestSettings
{
    private EmbeddedTestSettings()
    {
    }

    /**
     * @return the settings, in a map the test may change (a new Aeron directory name each call).
     */
    public static Map<String, String> onFreePorts()
    {
        final Map<String, String> settings = new HashMap<>();
        settings.put("BOURSE_AERON_DIR", newAeronDirectory());
        for (final String port : new String[] {"BOURSE_GATEWAY_PORT", "BOURSE_FANOUT_PORT",
            "BOURSE_DRIVER_METRICS_PORT", "BOURSE_ENGINE_METRICS_PORT", "BOURSE_GATEWAY_METRICS_PORT",
            "BOURSE_FANOUT_METRICS_PORT", "BOURSE_MDPUBLISHER_METRICS_PORT"})
        {
            settings.put(port, "0");
        }
        settings.put("BOURSE_MD_MOLD_ENABLED", "false");
        settings.put("BOURSE_SYMBOLS", "AAPL@0");
        settings.put("BOURSE_CREDENTIALS_FILE", Path.of("..", "deploy", "credentials.csv").toAbsolutePath().toString());
        return settings;
    }

    /**
     * @return a path under java.io.tmpdir, new for each call, for an Aeron directory of a test's own (not created).
     */
    public static String newAeronDirectory()
    {
        return new File(System.getProperty("java.io.tmpdir"), "bourse-embedded-test-" + UUID.randomUUID()).getPath();
    }
}
