package io.bourse.gateway;

import io.aeron.archive.ArchivingMediaDriver;
import io.aeron.driver.MediaDriver;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import io.bourse.common.aeron.EventArchive;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.engine.EngineContext;
import io.bourse.engine.EngineService;
import io.bourse.engine.match.SelfTradePrevention;
import org.agrona.CloseHelper;
import org.agrona.concurrent.SleepingMillisIdleStrategy;

import java.util.Map;

/**
 * The real matching engine for gateway tests: an embedded media driver ({@link EmbeddedMediaDriver}) and engine
 * shards 0 and 1 trading {@link #SYMBOLS}, idling 1 ms; with the {@link EventArchive} when asked, the shards
 * recording their event streams in it as deployed.
 */
final class EngineShards implements AutoCloseable
{
    /** The symbols and their shards. */
    static final SymbolDirectory SYMBOLS = SymbolDirectory.parse("AAPL@0,MSFT@1,GOOG@0,AMZN@1");

    private final AutoCloseable driver;
    private final EventArchive archive;
    private final StreamLayout layout;
    private final EngineService shard0;
    private final EngineService shard1;

    /**
     * @param name                    names the driver's directory.
     * @param firmSelfTradePrevention per-firm self-trade prevention modes of both shards.
     */
    EngineShards(final String name, final Map<String, SelfTradePrevention> firmSelfTradePrevention)
    {
        this(name, firmSelfTradePrevention, EventArchive.DISABLED);
    }

    /**
     * @param name                    names the driver's directory.
     * @param firmSelfTradePrevention per-firm self-trade prevention modes of both shards.
     * @param archive                 the event archive, run with the driver when enabled.
     */
    EngineShards(
        final String name, final Map<String, SelfTradePrevention> firmSelfTradePrevention, final EventArchive archive)
    {
        this.archive = archive;
        if (archive.enabled())
        {
            final ArchivingMediaDriver archivingDriver = EmbeddedMediaDriver.launchWithArchive(name, archive);
            driver = archivingDriver;
            layout = EmbeddedMediaDriver.defaultLayout(archivingDriver.mediaDriver());
        }
        else
        {
            final MediaDriver mediaDriver = EmbeddedMediaDriver.launch(name);
            driver = mediaDriver;
            layout = EmbeddedMediaDriver.defaultLayout(mediaDriver);
        }
        shard0 = launchShard(0, SYMBOLS, firmSelfTradePrevention);
        shard1 = launchShard(1, SYMBOLS, firmSelfTradePrevention);
    }

    /** @return the stream layout on the driver's directory, for the gateway and any other client. */
    StreamLayout layout()
    {
        return layout;
    }

    /**
     * @param shardId 0 or 1.
     * @return the shard's metrics port on the loopback interface.
     */
    int metricsPort(final int shardId)
    {
        return 0 == shardId ? shard0.metricsPort() : shard1.metricsPort();
    }

    /** @return the driver's directory. */
    String aeronDirectoryName()
    {
        return layout.aeronDirectoryName();
    }

    /** @return the event archive the shards record in, for the gateway to replay from. */
    EventArchive eventArchive()
    {
        return archive;
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(shard0, shard1, driver);
    }

    /**
     * Starts another shard on the driver, recording its events in the archive when enabled, for a test that needs one
     * it can stop.
     *
     * @param shardId the shard, 2 or more.
     * @param symbols the symbols, some of them the shard's.
     * @return the shard, to be closed by the caller before this.
     */
    EngineService launchShard(final int shardId, final SymbolDirectory symbols)
    {
        return launchShard(shardId, symbols, Map.of());
    }

    private EngineService launchShard(
        final int shardId, final SymbolDirectory symbols, final Map<String, SelfTradePrevention> firmSelfTradePrevention)
    {
        return EngineService.launch(new EngineContext()
            .shardId(shardId)
            .metricsPort(0)
            .jvmMetrics(false)
            .firmSelfTradePrevention(firmSelfTradePrevention)
            .streamLayout(layout)
            .symbolDirectory(symbols)
            .eventArchive(archive)
            .idleStrategy(new SleepingMillisIdleStrategy(1)));
    }
}
