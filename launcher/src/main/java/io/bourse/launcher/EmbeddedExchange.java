package io.bourse.launcher;

import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.engine.EngineContext;
import io.bourse.engine.EngineService;
import io.bourse.fanout.FanoutContext;
import io.bourse.fanout.FanoutService;
import io.bourse.gateway.GatewayContext;
import io.bourse.gateway.GatewayService;
import io.bourse.mdpublisher.MdPublisherContext;
import io.bourse.mdpublisher.MdPublisherService;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The whole exchange in one JVM (DESIGN.md run mode 1): an embedded media driver, one matching-engine shard per
 * shard of the symbol directory, the md-publisher, the order gateway (OUCH on 15000) and the fanout (ITCH on 16000),
 * each with its metrics endpoint, all configured from one {@link Settings}. Started in data-flow order, closed in
 * reverse. The engine keeps its books in memory only, so the gateway's session journals belong to this run: unless
 * {@value GatewayContext#JOURNAL_DIR_PROP_NAME} is set, they go to a new temporary directory, deleted on close (a
 * gateway restarted on the journals of an earlier run would rebuild orders the new engine never had).
 */
public final class EmbeddedExchange implements AutoCloseable
{
    private final List<AutoCloseable> services;

    private EmbeddedExchange(final List<AutoCloseable> services)
    {
        this.services = services;
    }

    /**
     * Starts every service. If one fails to start, those already started are closed and the error is rethrown.
     *
     * @param settings configuration shared by every service, {@code bourse.aeron.dir} included; the media driver
     *                 serves JVM metrics, the others not.
     * @return the running exchange.
     */
    public static EmbeddedExchange launch(final Settings settings)
    {
        final List<AutoCloseable> started = new ArrayList<>();
        try
        {
            started.add(MediaDriverService.launch(settings));
            final SymbolDirectory directory = SymbolDirectory.fromSettings(settings);
            for (int shard = 0; shard < directory.shardCount(); shard++)
            {
                if (directory.symbolsOfShard(shard).isEmpty())
                {
                    continue;
                }
                started.add(EngineService.launch(EngineContext.fromSettings(settings)
                    .shardId(shard)
                    .metricsPort(9410 + shard)
                    .jvmMetrics(false)));
            }
            started.add(MdPublisherService.launch(MdPublisherContext.fromSettings(settings).jvmMetrics(false)));
            final GatewayContext gateway = GatewayContext.fromSettings(settings).jvmMetrics(false);
            if (null == settings.get(GatewayContext.JOURNAL_DIR_PROP_NAME, null))
            {
                final Path journalDir = Files.createTempDirectory("bourse-embedded-journal");
                started.add(() -> IoUtil.delete(journalDir.toFile(), true));
                gateway.journalDir(journalDir.toString());
            }
            started.add(GatewayService.launch(gateway));
            started.add(FanoutService.launch(FanoutContext.fromSettings(settings).jvmMetrics(false)));
            return new EmbeddedExchange(started);
        }
        catch (final IOException ex)
        {
            closeReversed(started);
            throw new UncheckedIOException("cannot create the gateway's journal directory", ex);
        }
        catch (final RuntimeException ex)
        {
            closeReversed(started);
            throw ex;
        }
    }

    /** Closes the services in reverse start order. */
    @Override
    public void close()
    {
        final List<AutoCloseable> reversed = new ArrayList<>(services);
        Collections.reverse(reversed);
        CloseHelper.closeAll(reversed);
    }

    private static void closeReversed(final List<AutoCloseable> started)
    {
        Collections.reverse(started);
        CloseHelper.quietCloseAll(started);
    }
}
