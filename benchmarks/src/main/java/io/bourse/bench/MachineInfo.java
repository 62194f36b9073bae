package io.bourse.bench;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/** The machine and JVM a benchmark ran on, as printed at the top of its report. */
final class MachineInfo
{
    private static final Path CPUINFO = Path.of("/proc/cpuinfo");

    private MachineInfo()
    {
    }

    /** @return lines naming cores, CPU model, OS, JVM, its flags, heap and collectors. */
    static String describe()
    {
        final Runtime runtime = Runtime.getRuntime();
        final String collectors = ManagementFactory.getGarbageCollectorMXBeans().stream()
            .map(GarbageCollectorMXBean::getName).collect(Collectors.joining(", "));
        return "machine: " + runtime.availableProcessors() + " cores, " + cpuModel() + ", " +
            System.getProperty("os.name") + " " + System.getProperty("os.version") + " " +
            System.getProperty("os.arch") + "\n" +
            "jvm: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " (" +
            System.getProperty("java.vm.vendor") + "), max heap " + (runtime.maxMemory() >> 20) + " MiB, GC " +
            collectors + "\n" +
            "jvm flags: " + String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()) + "\n";
    }

    /** @return the first {@code model name} of /proc/cpuinfo, or "unknown CPU" where there is none. */
    static String cpuModel()
    {
        try
        {
            final List<String> lines = Files.readAllLines(CPUINFO);
            for (final String line : lines)
            {
                if (line.startsWith("model name"))
                {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            return "unknown CPU (" + ex.getMessage() + ")";
        }
        return "unknown CPU";
    }
}
