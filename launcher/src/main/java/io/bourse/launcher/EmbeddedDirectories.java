package io.bourse.launcher;

import org.agrona.IoUtil;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The directories an embedded run ({@code ./bourse demo}, {@code exchange}, {@code bench}) keeps for itself, each named
 * after its process id, and the removal of those whose process is gone. A run killed with no chance to clean up
 * ({@code kill -9}, the OOM killer) leaves its Aeron directory in /dev/shm, whose IPC term buffers, as a run writes
 * them, take up to hundreds of MiB of memory until they are deleted, and its gateway journal directory in the
 * temporary directory.
 */
final class EmbeddedDirectories
{
    /** Name of an embedded run's Aeron directory, before its process id. */
    static final String AERON_DIR_PREFIX = "aeron-bourse-embedded-";
    /** Name of an embedded run's gateway journal directory, before its process id, a '-' and a random suffix. */
    static final String JOURNAL_DIR_PREFIX = "bourse-embedded-journal-";
    private static final Path SHARED_MEMORY = Path.of("/dev/shm");

    private EmbeddedDirectories()
    {
    }

    /** @return this process's Aeron directory: {@code /dev/shm/aeron-bourse-embedded-PID}. */
    static String aeronDirectory()
    {
        return SHARED_MEMORY.resolve(AERON_DIR_PREFIX + ProcessHandle.current().pid()).toString();
    }

    /**
     * @return a new journal directory of this process's run in {@code java.io.tmpdir}:
     * {@code bourse-embedded-journal-PID-RANDOM}.
     * @throws IOException when it cannot be created.
     */
    static Path createJournalDirectory() throws IOException
    {
        return Files.createTempDirectory(JOURNAL_DIR_PREFIX + ProcessHandle.current().pid() + "-");
    }

    /**
     * Deletes the directories that embedded runs whose process is no longer alive left in /dev/shm (Aeron) and in
     * {@code java.io.tmpdir} (gateway journals).
     *
     * @return the directories deleted.
     */
    static List<Path> deleteOrphans()
    {
        final List<Path> deleted = new ArrayList<>(deleteOrphans(SHARED_MEMORY, AERON_DIR_PREFIX));
        deleted.addAll(deleteOrphans(Path.of(System.getProperty("java.io.tmpdir")), JOURNAL_DIR_PREFIX));
        return deleted;
    }

    /**
     * Deletes, in that parent directory, every directory named {@code prefix + PID}, or {@code prefix + PID + "-" +
     * anything}, whose process PID is not alive; a process id taken again by another process keeps its directory. A
     * directory that cannot be deleted (another user's) is left, and a parent that cannot be listed is warned about on
     * standard error: cleaning up never stops a run.
     *
     * @param parent where to look; nothing is deleted when it does not exist.
     * @param prefix the name before the process id.
     * @return the directories deleted.
     */
    static List<Path> deleteOrphans(final Path parent, final String prefix)
    {
        final List<Path> deleted = new ArrayList<>();
        if (!Files.isDirectory(parent))
        {
            return deleted;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(parent, prefix + "*"))
        {
            for (final Path entry : entries)
            {
                final long pid = processId(entry.getFileName().toString().substring(prefix.length()));
                if (pid > 0 && Files.isDirectory(entry) &&
                    !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                {
                    IoUtil.delete(entry.toFile(), true);
                    if (!Files.exists(entry))
                    {
                        deleted.add(entry);
                    }
                }
            }
        }
        catch (final IOException | UncheckedIOException ex)
        {
            System.err.println("cannot look for the directories of killed embedded runs in " + parent + ": " + ex);
        }
        return deleted;
    }

    /** @return the process id a name starts with, up to a '-' or its end; -1 when it has none. */
    private static long processId(final String name)
    {
        final int end = name.indexOf('-');
        final String digits = end < 0 ? name : name.substring(0, end);
        if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(Character::isDigit))
        {
            return -1;
        }
        return Long.parseLong(digits);
    }
}
