package io.bourse.common.aeron;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Test extension ({@code @RegisterExtension}): a real Aeron media driver embedded in the test's JVM
 * ({@link EmbeddedMediaDriver}) with IPC terms of a given length, and an Aeron client connected to it, both launched
 * before each test (before its {@code @BeforeEach} methods) and closed after it (after its {@code @AfterEach}
 * methods), the client first.
 */
public final class EmbeddedAeron implements BeforeEachCallback, AfterEachCallback
{
    private final String name;
    private final int ipcTermLength;
    private MediaDriver driver;
    private Aeron aeron;

    /**
     * @param name          names the driver's directory ({@link EmbeddedMediaDriver#launch(String)}), e.g. the test.
     * @param ipcTermLength the driver's IPC term length in bytes, a power of two from 64 KiB: small terms put a test's
     *                      messages across term ends.
     */
    public EmbeddedAeron(final String name, final int ipcTermLength)
    {
        this.name = name;
        this.ipcTermLength = ipcTermLength;
    }

    @Override
    public void beforeEach(final ExtensionContext context)
    {
        driver = EmbeddedMediaDriver.launch(name, (ctx) -> ctx.ipcTermBufferLength(ipcTermLength));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
    }

    @Override
    public void afterEach(final ExtensionContext context)
    {
        CloseHelper.closeAll(aeron, driver);
    }

    /** @return the client connected to the test's driver; during a test only. */
    public Aeron aeron()
    {
        return aeron;
    }
}
