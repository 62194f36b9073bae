package io.bourse.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * I/O system calls and CPU time of the threads of this JVM that bear one name, as Linux counts them per thread:
 * {@code syscr} (read, readv, pread calls, socket reads included) and {@code syscw} (write, writev, pwrite calls) in
 * {@code /proc/self/task/<tid>/io}, and the nanoseconds on a CPU, the first field of
 * {@code /proc/self/task/<tid>/schedstat}. How {@code bourse bench gateway} shows what each server thread does per
 * request. CPU time includes an idle strategy's spinning: it is the cost of a request only where the thread is
 * saturated or parks when idle. Where /proc is not there, {@link #isAvailable()} is false.
 */
final class ThreadActivity
{
    /** Linux keeps the first 15 bytes of a thread's name. */
    private static final int COMM_LENGTH = 15;
    private static final Path TASKS = Path.of("/proc/self/task");

    /**
     * Counters of the threads, summed.
     *
     * @param readCalls  read system calls.
     * @param writeCalls write system calls.
     * @param cpuNs      nanoseconds the threads ran on a CPU.
     */
    record Sample(long readCalls, long writeCalls, long cpuNs)
    {
        /**
         * @param earlier a sample taken before this one.
         * @return the counts between the two.
         */
        Sample minus(final Sample earlier)
        {
            return new Sample(readCalls - earlier.readCalls, writeCalls - earlier.writeCalls, cpuNs - earlier.cpuNs);
        }
    }

    private final String name;
    private final List<Path> tasks;

    private ThreadActivity(final String name, final List<Path> tasks)
    {
        this.name = name;
        this.tasks = tasks;
    }

    /**
     * Finds the threads by name; call once they have started.
     *
     * @param threadName the Java thread name (an agent's role name), cut as Linux cuts it: every thread whose name
     *                   starts with the same 15 bytes is counted too.
     * @param label      name for the report.
     * @return the threads, possibly none.
     */
    static ThreadActivity find(final String threadName, final String label)
    {
        final String comm = threadName.length() > COMM_LENGTH ? threadName.substring(0, COMM_LENGTH) : threadName;
        return matching(comm::equals, label);
    }

    /**
     * Finds the threads whose names start with a prefix; call once they have started.
     *
     * @param prefix at most 15 bytes, the start of the Java thread names.
     * @param label  name for the report.
     * @return the threads, possibly none.
     * @throws IllegalArgumentException when the prefix is longer than Linux keeps of a name.
     */
    static ThreadActivity findAll(final String prefix, final String label)
    {
        if (prefix.length() > COMM_LENGTH)
        {
            throw new IllegalArgumentException("longer than " + COMM_LENGTH + " bytes: " + prefix);
        }
        return matching((comm) -> comm.startsWith(prefix), label);
    }

    private static ThreadActivity matching(final Predicate<String> comm, final String label)
    {
        final List<Path> tasks = new ArrayList<>();
        try (Stream<Path> stream = Files.list(TASKS))
        {
            stream.forEach((task) ->
            {
                if (comm.test(read(task.resolve("comm")).trim()))
                {
                    tasks.add(task);
                }
            });
        }
        catch (final IOException | RuntimeException ex)
        {
            tasks.clear();
        }
        return new ThreadActivity(label, tasks);
    }

    /** @return name for the report. */
    String name()
    {
        return name;
    }

    /** @return true when the threads were found and their counters can be read. */
    boolean isAvailable()
    {
        return !tasks.isEmpty();
    }

    /** @return the counters now, summed over the threads; zeros when not {@link #isAvailable() available}. */
    Sample sample()
    {
        long readCalls = 0;
        long writeCalls = 0;
        long cpuNs = 0;
        for (final Path task : tasks)
        {
            final String schedstat = read(task.resolve("schedstat")).trim();
            if (!schedstat.isEmpty())
            {
                cpuNs += Long.parseLong(schedstat.split(" ")[0]);
            }
            for (final String line : read(task.resolve("io")).split("\n"))
            {
                if (line.startsWith("syscr:"))
                {
                    readCalls += Long.parseLong(line.substring(6).trim());
                }
                else if (line.startsWith("syscw:"))
                {
                    writeCalls += Long.parseLong(line.substring(6).trim());
                }
            }
        }
        return new Sample(readCalls, writeCalls, cpuNs);
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final IOException ex)
        {
            return "";
        }
    }
}
