package io.bourse.bench;

/**
 * Whether exchange-core's full pipeline can start in this JVM. Its API sets up symbols with binary commands that it
 * serialises with Chronicle Bytes (chronicle-core 2.19), whose start-up reflects on JDK internals:
 * {@code sun.nio.ch.FileChannelImpl} must be exported to it ({@value #EXPORT_FLAG}) and must still have
 * {@code unmap0(long, long)}, which JDK 17 has and later JDKs removed. The order book alone needs neither.
 */
final class PipelineSupport
{
    /** The flag chronicle-core needs on JDK 17; pass it in {@code BOURSE_JAVA_OPTS}. */
    static final String EXPORT_FLAG = "--add-exports java.base/sun.nio.ch=ALL-UNNAMED";

    private static final String CHRONICLE_OS = "net.openhft.chronicle.core.OS";

    private PipelineSupport()
    {
    }

    /** @return null when exchange-core's pipeline can run here, otherwise why not and what to do. */
    static String unavailableReason()
    {
        try
        {
            Class.forName(CHRONICLE_OS, true, PipelineSupport.class.getClassLoader());
            return null;
        }
        catch (final ReflectiveOperationException | LinkageError | AssertionError ex)
        {
            final Throwable cause = ex instanceof ExceptionInInitializerError && null != ex.getCause() ?
                ex.getCause() : ex;
            if (cause instanceof IllegalAccessError)
            {
                return "its serialisation library (chronicle-core 2.19) needs the JVM flag " + EXPORT_FLAG +
                    " (set BOURSE_JAVA_OPTS): " + cause.getMessage();
            }
            return "its serialisation library (chronicle-core 2.19, which adds the symbol) cannot start on Java " +
                Runtime.version().feature() + ": " + cause + " (sun.nio.ch.FileChannelImpl.unmap0 exists up to JDK 17)";
        }
    }
}
