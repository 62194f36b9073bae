package io.bourse.common.aeron;

import io.aeron.CommonContext;
import io.aeron.archive.ArchivingMediaDriver;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.bourse.common.config.Settings;

import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * Test fixture: a real Aeron media driver embedded in the test's JVM, one conductor/sender/receiver thread
 * ({@link ThreadingMode#SHARED}), in a directory of its own beside Aeron's default one (under {@code /dev/shm} on
 * Linux), deleted when it starts and when the driver is closed. Tests close the driver after the services and clients
 * that use it.
 */
public final class EmbeddedMediaDriver
{
    private EmbeddedMediaDriver()
    {
    }

    /**
     * @param name names the directory, {@code <Aeron default directory>-<name>-<random UUID>}, e.g. the test.
     * @return the running driver.
     */
    public static MediaDriver launch(final String name)
    {
        return launch(name, UnaryOperator.identity());
    }

    /**
     * @param name   names the directory, {@code <Aeron default directory>-<name>-<random UUID>}, e.g. the test.
     * @param tuning changes to the driver's context before launch, e.g. a smaller IPC term length.
     * @return the running driver.
     */
    public static MediaDriver launch(final String name, final UnaryOperator<MediaDriver.Context> tuning)
    {
        return MediaDriver.launchEmbedded(tuning.apply(context(name)));
    }

    /**
     * @param name    names the directory, {@code <Aeron default directory>-<name>-<random UUID>}, e.g. the test.
     * @param archive the event archive to run with the driver, as the launcher's media driver service runs it.
     * @return the running driver and archive.
     */
    public static ArchivingMediaDriver launchWithArchive(final String name, final EventArchive archive)
    {
        return launchWithArchive(name, archive, UnaryOperator.identity());
    }

    /**
     * @param name    names the directory, {@code <Aeron default directory>-<name>-<random UUID>}, e.g. the test.
     * @param archive the event archive to run with the driver, as the launcher's media driver service runs it.
     * @param tuning  changes to the driver's context before launch, e.g. shorter untethered timeouts.
     * @return the running driver and archive.
     */
    public static ArchivingMediaDriver launchWithArchive(
        final String name, final EventArchive archive, final UnaryOperator<MediaDriver.Context> tuning)
    {
        return ArchivingMediaDriver.launch(tuning.apply(context(name)), archive.archiveContext(Thread::new));
    }

    private static MediaDriver.Context context(final String name)
    {
        return new MediaDriver.Context()
            .aeronDirectoryName(CommonContext.getAeronDirectoryName() + "-" + name + "-" + UUID.randomUUID())
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true);
    }

    /**
     * @param driver a running driver.
     * @return the default stream layout (no settings, {@link StreamLayout#fromSettings}) on the driver's directory.
     */
    public static StreamLayout defaultLayout(final MediaDriver driver)
    {
        return StreamLayout.fromSettings(new Settings(Map.of())).withAeronDirectory(driver.aeronDirectoryName());
    }
}
