package io.bourse.common.aeron;

import io.aeron.Aeron;
import io.aeron.archive.ArchivingMediaDriver;
import io.aeron.driver.MediaDriver;
import org.agrona.CloseHelper;

import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * Test fixture: an archiving embedded media driver ({@link EmbeddedMediaDriver#launchWithArchive}) with its
 * {@link EventArchive} in a test's directory, the default {@link StreamLayout} on the driver's directory and an Aeron
 * client connected to it, as the tests of restarts recovering from the event archive start. {@link #close()} closes
 * the client, then the driver with its archive; close the services under test first.
 */
public final class ArchivingDriverFixture implements AutoCloseable
{
    private final EventArchive archive;
    private final ArchivingMediaDriver driver;
    private final StreamLayout layout;
    private final Aeron aeron;

    /**
     * @param name       names the driver's directory ({@link EmbeddedMediaDriver#launch(String)}), e.g. the test.
     * @param archiveDir where the archive keeps its catalog and recordings, e.g. a JUnit temporary directory.
     */
    public ArchivingDriverFixture(final String name, final Path archiveDir)
    {
        this(name, archiveDir, UnaryOperator.identity());
    }

    /**
     * @param name       names the driver's directory ({@link EmbeddedMediaDriver#launch(String)}), e.g. the test.
     * @param archiveDir where the archive keeps its catalog and recordings, e.g. a JUnit temporary directory.
     * @param tuning     changes to the driver's context before launch, e.g. shorter untethered timeouts.
     */
    public ArchivingDriverFixture(
        final String name, final Path archiveDir, final UnaryOperator<MediaDriver.Context> tuning)
    {
        archive = new EventArchive(true, archiveDir.toString(), EventArchive.REPLAY_STREAM_DEFAULT);
        driver = EmbeddedMediaDriver.launchWithArchive(name, archive, tuning);
        layout = EmbeddedMediaDriver.defaultLayout(driver.mediaDriver());
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.mediaDriver().aeronDirectoryName()));
    }

    /** @return the event archive the driver runs, enabled, with the default replay stream. */
    public EventArchive archive()
    {
        return archive;
    }

    /** @return the default stream layout on the driver's directory. */
    public StreamLayout layout()
    {
        return layout;
    }

    /** @return a client of the driver, closed with the fixture. */
    public Aeron aeron()
    {
        return aeron;
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(aeron, driver);
    }
}
