package io.bourse.common.aeron;

import io.bourse.common.config.Settings;
import net.openhft.affinity.Affinity;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Which CPUs each agent thread may run on, inside the CPUs the process may use (a container's cpuset): setting
 * {@value #THREAD_AFFINITY_PROP_NAME} (env {@code BOURSE_THREAD_AFFINITY}), entries {@code role=cpus} separated by
 * {@code ;}, e.g. {@code order-gateway=0;matching-engine-0=1;fanout-worker-*=1}. A role is an agent's role name (its
 * thread's name), or a prefix ending in {@code *} that matches every role starting with it; an exact name wins over a
 * prefix and a longer prefix over a shorter one. A thread running several agents (Agrona's {@code CompositeAgent},
 * named {@code [first,second]}) takes the entry of its first agent. The CPUs are a Linux CPU list: {@code 1},
 * {@code 0-1}, {@code 0,2}. Empty or unset (the default): no thread is pinned and each may run on any CPU of the
 * process. A thread is pinned by the thread itself when it starts, through OpenHFT's Java-Thread-Affinity
 * ({@code sched_setaffinity} on Linux; pinning is Linux only).
 * <p>
 * The syntax of every entry is checked when the setting is read; the CPUs of an entry are checked against those the
 * process may run on when a role of this process looks it up, before its thread starts: one setting can then serve
 * every container of a deployment, each with its own cpuset, as an entry names only the CPUs of its own service.
 */
public final class ThreadAffinity
{
    /** Setting name of the thread affinity. */
    public static final String THREAD_AFFINITY_PROP_NAME = "bourse.thread.affinity";

    /** No thread pinned: every thread may run on any CPU of the process. */
    public static final ThreadAffinity NONE = new ThreadAffinity(Map.of(), List.of(), new BitSet());

    private static final String CPUS_ALLOWED_LIST = "Cpus_allowed_list:";
    private static final String NAME = "Name:";
    private static final Path PROC_SELF = Path.of("/proc/self");
    /** CPU ids go up to Linux's largest {@code CONFIG_NR_CPUS}. */
    private static final int MAX_CPUS = 8192;

    private final Map<String, Rule> exactRoles;
    private final List<Map.Entry<String, Rule>> prefixRoles;
    private final BitSet allowedCpus;

    private ThreadAffinity(
        final Map<String, Rule> exactRoles, final List<Map.Entry<String, Rule>> prefixRoles, final BitSet allowedCpus)
    {
        this.exactRoles = exactRoles;
        this.prefixRoles = prefixRoles;
        this.allowedCpus = allowedCpus;
    }

    /**
     * A thread of this JVM and the CPUs it may run on.
     *
     * @param threadId the Linux thread id.
     * @param name     the thread's name as Linux keeps it ({@code comm}: the Java name cut to 15 characters).
     * @param cpuList  the CPUs it may run on, a Linux CPU list such as {@code 0-1}.
     */
    public record ThreadCpus(long threadId, String name, String cpuList)
    {
    }

    /** One entry of the setting: its text, for error messages, and its CPUs. */
    private record Rule(String entry, BitSet cpus)
    {
    }

    /**
     * @param settings source of {@value #THREAD_AFFINITY_PROP_NAME}.
     * @return the affinity it sets, {@link #NONE} when empty or unset.
     * @throws IllegalArgumentException naming the setting and the entry when an entry is malformed or names a role
     *                                  twice, or naming the setting when set off Linux or without JNA.
     */
    public static ThreadAffinity fromSettings(final Settings settings)
    {
        final String value = settings.get(THREAD_AFFINITY_PROP_NAME, "");
        if (value.isBlank())
        {
            return NONE;
        }
        final BitSet allowedCpus = processCpus();
        if (allowedCpus.isEmpty() || !Affinity.isJNAAvailable())
        {
            throw new IllegalArgumentException(THREAD_AFFINITY_PROP_NAME + "=" + value +
                ": thread affinity needs Linux (/proc/self/status) and JNA (to call sched_setaffinity)");
        }
        return parse(value, allowedCpus);
    }

    /**
     * @param value       entries {@code role=cpus} separated by {@code ;}.
     * @param allowedCpus the CPUs the process may run on.
     * @return the affinity.
     * @throws IllegalArgumentException naming the setting and the entry when an entry is malformed.
     */
    static ThreadAffinity parse(final String value, final BitSet allowedCpus)
    {
        final Map<String, Rule> exactRoles = new LinkedHashMap<>();
        final Map<String, Rule> prefixRoles = new LinkedHashMap<>();
        for (final String rawEntry : value.split(";"))
        {
            final String entry = rawEntry.strip();
            if (entry.isEmpty())
            {
                continue;
            }
            final int equals = entry.indexOf('=');
            if (equals < 0)
            {
                throw badEntry(entry, "expected role=cpus");
            }
            final String role = entry.substring(0, equals).strip();
            final int star = role.indexOf('*');
            if (role.isEmpty() || (star >= 0 && star != role.length() - 1))
            {
                throw badEntry(entry, "a role is a name, or a prefix ending in *");
            }
            final Rule rule = new Rule(entry, parseCpuList(entry.substring(equals + 1).strip(), entry));
            final Map<String, Rule> roles = star < 0 ? exactRoles : prefixRoles;
            if (null != roles.putIfAbsent(star < 0 ? role : role.substring(0, star), rule))
            {
                throw badEntry(entry, "role " + role + " is given twice");
            }
        }
        final List<Map.Entry<String, Rule>> byLongestPrefix = new ArrayList<>(prefixRoles.entrySet());
        byLongestPrefix.sort(Comparator.comparingInt((Map.Entry<String, Rule> e) -> e.getKey().length()).reversed());
        return exactRoles.isEmpty() && byLongestPrefix.isEmpty() ? NONE :
            new ThreadAffinity(Map.copyOf(exactRoles), List.copyOf(byLongestPrefix), (BitSet)allowedCpus.clone());
    }

    /** @return true when no thread is pinned. */
    public boolean isEmpty()
    {
        return exactRoles.isEmpty() && prefixRoles.isEmpty();
    }

    /**
     * @param roleName an agent's role name, or {@code [first,second]} for a composite of several agents.
     * @return a new set of the CPUs the role's thread is pinned to, empty when it is not pinned.
     * @throws IllegalArgumentException naming the setting and the entry when the role's entry names a CPU this
     *                                  process may not run on.
     */
    public BitSet cpus(final String roleName)
    {
        final Rule rule = rule(roleName.startsWith("[") ? firstOfComposite(roleName) : roleName);
        if (null == rule)
        {
            return new BitSet();
        }
        final BitSet notAllowed = (BitSet)rule.cpus().clone();
        notAllowed.andNot(allowedCpus);
        if (!notAllowed.isEmpty())
        {
            throw badEntry(rule.entry(), "CPUs " + cpuList(notAllowed) + " are not among those this process may run " +
                "on (" + cpuList(allowedCpus) + ")");
        }
        return (BitSet)rule.cpus().clone();
    }

    /**
     * Pins the calling thread to its role's CPUs, if the role has any, and logs {@code [role] pinned to CPUs 1}.
     * An agent thread does it first, before its agent starts.
     *
     * @param roleName the role the calling thread runs.
     * @throws IllegalArgumentException naming the setting and the entry when the role's entry names a CPU this
     *                                  process may not run on.
     * @throws IllegalStateException    when the operating system did not pin the thread.
     */
    public void pinCurrentThread(final String roleName)
    {
        final BitSet cpus = cpus(roleName);
        if (!cpus.isEmpty())
        {
            pin(roleName, cpus);
        }
    }

    /**
     * @param roleName the role of the threads made.
     * @return a factory of threads that pin themselves to the role's CPUs before running their task (for Agrona's
     *         {@code AgentRunner.startOnThread} and Aeron's driver thread factories); plain threads when the role is
     *         not pinned. A thread the operating system does not pin (which the CPU check here, before any thread
     *         starts, makes unlikely) logs why to standard error and runs unpinned, so that a service never waits on
     *         a thread that died before its agent started; {@link #describeThreads()} shows where it runs.
     * @throws IllegalArgumentException naming the setting and the entry when the role's entry names a CPU this
     *                                  process may not run on.
     */
    public ThreadFactory threadFactory(final String roleName)
    {
        if (cpus(roleName).isEmpty())
        {
            return Thread::new;
        }
        return (task) -> new Thread(() ->
        {
            try
            {
                pinCurrentThread(roleName);
            }
            catch (final RuntimeException | LinkageError ex) // LinkageError: the affinity library's native part
            {
                System.err.println(bracketed(roleName) + " runs unpinned: " + ex);
            }
            task.run();
        });
    }

    /**
     * Where this JVM's threads may run: every thread of {@code /proc/self/task} with its name and the CPUs it may
     * run on, for a benchmark report to state the layout it ran with.
     *
     * @return the threads by thread id; empty off Linux.
     * @throws UncheckedIOException when {@code /proc/self/task} cannot be listed.
     */
    public static List<ThreadCpus> describeThreads()
    {
        final Path tasks = PROC_SELF.resolve("task");
        if (!Files.isDirectory(tasks))
        {
            return List.of();
        }
        try (Stream<Path> taskDirs = Files.list(tasks))
        {
            final List<ThreadCpus> threads = new ArrayList<>();
            for (final Path taskDir : taskDirs.toList())
            {
                final Map<String, String> status = readStatus(taskDir.resolve("status"));
                if (!status.isEmpty())
                {
                    final long threadId = Long.parseLong(taskDir.getFileName().toString());
                    threads.add(new ThreadCpus(threadId, status.get(NAME), status.get(CPUS_ALLOWED_LIST)));
                }
            }
            threads.sort(Comparator.comparingLong(ThreadCpus::threadId));
            return threads;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list " + tasks, ex);
        }
    }

    /** @return the entries in {@value #THREAD_AFFINITY_PROP_NAME} syntax, exact roles first; empty for none. */
    @Override
    public String toString()
    {
        return Stream.concat(
                exactRoles.entrySet().stream().map((e) -> e.getKey() + "=" + cpuList(e.getValue().cpus())).sorted(),
                prefixRoles.stream().map((e) -> e.getKey() + "*=" + cpuList(e.getValue().cpus())))
            .collect(Collectors.joining(";"));
    }

    private Rule rule(final String role)
    {
        final Rule exact = exactRoles.get(role);
        if (null != exact)
        {
            return exact;
        }
        for (final Map.Entry<String, Rule> prefix : prefixRoles)
        {
            if (role.startsWith(prefix.getKey()))
            {
                return prefix.getValue();
            }
        }
        return null;
    }

    private static void pin(final String roleName, final BitSet cpus)
    {
        Affinity.setAffinity((BitSet)cpus.clone());
        final BitSet actual = Affinity.getAffinity();
        if (!cpus.equals(actual))
        {
            throw new IllegalStateException(bracketed(roleName) + " could not be pinned to CPUs " + cpuList(cpus) +
                ": it may run on " + cpuList(actual));
        }
        System.out.println(bracketed(roleName) + " pinned to CPUs " + cpuList(cpus));
    }

    /**
     * @param cpuList a Linux CPU list, e.g. {@code 0-1,4}.
     * @param entry   the entry to name in the exception.
     * @return the CPUs.
     * @throws IllegalArgumentException naming the entry when the list is malformed.
     */
    private static BitSet parseCpuList(final String cpuList, final String entry)
    {
        final BitSet cpus = new BitSet();
        for (final String item : cpuList.split(",", -1))
        {
            final int dash = item.indexOf('-');
            final int first = parseCpu(dash < 0 ? item : item.substring(0, dash), entry);
            final int last = dash < 0 ? first : parseCpu(item.substring(dash + 1), entry);
            if (last < first)
            {
                throw badEntry(entry, "empty CPU range " + item);
            }
            cpus.set(first, last + 1);
        }
        return cpus;
    }

    private static int parseCpu(final String cpu, final String entry)
    {
        final String digits = cpu.strip();
        if (digits.isEmpty() || digits.length() > 5 || !digits.chars().allMatch(Character::isDigit))
        {
            throw badEntry(entry, "a CPU list is like 1, 0-1 or 0,2 with CPUs 0 to " + (MAX_CPUS - 1));
        }
        final int cpuId = Integer.parseInt(digits);
        if (cpuId >= MAX_CPUS)
        {
            throw badEntry(entry, "CPU " + cpuId + " is above " + (MAX_CPUS - 1));
        }
        return cpuId;
    }

    private static IllegalArgumentException badEntry(final String entry, final String reason)
    {
        return new IllegalArgumentException(THREAD_AFFINITY_PROP_NAME + ": bad entry \"" + entry + "\": " + reason);
    }

    /** @return {@code [role]}, or a composite's {@code [first,second]} as it is. */
    private static String bracketed(final String roleName)
    {
        return roleName.startsWith("[") ? roleName : "[" + roleName + "]";
    }

    private static String firstOfComposite(final String roleName)
    {
        int end = 1;
        while (end < roleName.length() && ',' != roleName.charAt(end) && ']' != roleName.charAt(end))
        {
            end++;
        }
        return roleName.substring(1, end);
    }

    /** @return the CPUs the process may run on (its cpuset), empty off Linux. */
    private static BitSet processCpus()
    {
        final String cpuList = readStatus(PROC_SELF.resolve("status")).get(CPUS_ALLOWED_LIST);
        return null == cpuList ? new BitSet() : parseCpuList(cpuList, CPUS_ALLOWED_LIST + " " + cpuList);
    }

    /**
     * @param status a {@code /proc} status file.
     * @return its name and allowed CPU list, by field name with the colon; empty when the file is gone (a thread
     *         that ended) or absent (not Linux).
     */
    private static Map<String, String> readStatus(final Path status)
    {
        try
        {
            final Map<String, String> fields = new LinkedHashMap<>();
            // Lenient decoding: Linux cuts a thread's name at 15 bytes, possibly inside a UTF-8 character.
            for (final String line : new String(Files.readAllBytes(status), StandardCharsets.UTF_8).split("\n"))
            {
                if (line.startsWith(NAME) || line.startsWith(CPUS_ALLOWED_LIST))
                {
                    final int colon = line.indexOf(':');
                    fields.put(line.substring(0, colon + 1), line.substring(colon + 1).strip());
                }
            }
            return fields;
        }
        catch (final NoSuchFileException ex)
        {
            return Map.of();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + status, ex);
        }
    }

    private static String cpuList(final BitSet cpus)
    {
        final StringBuilder list = new StringBuilder();
        for (int first = cpus.nextSetBit(0); first >= 0; first = cpus.nextSetBit(first + 1))
        {
            final int last = cpus.nextClearBit(first) - 1;
            list.append(list.isEmpty() ? "" : ",").append(first).append(first == last ? "" : "-" + last);
            first = last;
        }
        return list.toString();
    }
}
