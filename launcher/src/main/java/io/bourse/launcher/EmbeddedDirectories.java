package io.bourse.launcher;

import io.aeron.CncFileDescriptor;
import io.aeron.CommonContext;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;

import java.io.File;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

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
     * Deletes the directories that embedded runs whose process is no longer alive left in /dev/shm (Aeron directories,
     * whose media driver has also stopped its heartbeat) and in {@code java.io.tmpdir} (gateway journals).
     *
     * @return the directories deleted.
     */
    static List<Path> deleteOrphans()
    {
        final List<Path> deleted = new ArrayList<>(
            deleteOrphans(SHARED_MEMORY, AERON_DIR_PREFIX, EmbeddedDirectories::isDriverBeating));
        deleted.addAll(deleteOrphans(Path.of(System.getProperty("java.io.tmpdir")), JOURNAL_DIR_PREFIX,
            (directory) -> false));
        return deleted;
    }

    /**
     * Deletes, in that parent directory, every directory named {@code prefix + PID}, or {@code prefix + PID + "-" +
     * anything}, that this process's user owns, whose process PID is not alive and that is not otherwise in use. A
     * process id taken again by another process keeps its directory; a symbolic link is never followed, neither as the
     * directory nor inside it (a link is deleted as a link). A directory that cannot be looked at or deleted is left
     * and the next one looked at, a parent that cannot be listed is left, each with a warning on standard error:
     * cleaning up never stops a run.
     *
     * @param parent     where to look; nothing is deleted when it does not exist.
     * @param prefix     the name before the process id.
     * @param stillInUse true for a directory to keep all the same (a live media driver's, whose process this one
     *                   cannot see from another process namespace).
     * @return the directories deleted.
     */
    static List<Path> deleteOrphans(final Path parent, final String prefix, final Predicate<Path> stillInUse)
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
                try
                {
                    if (pid > 0 && Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS) && isOwnUsers(entry) &&
                        !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) &&
                        !stillInUse.test(entry) && delete(entry))
                    {
                        deleted.add(entry);
                    }
                }
                catch (final IOException | RuntimeException ex)
                {
                    System.err.println("cannot look at " + entry + ", left by an embedded run: " + ex);
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            System.err.println("cannot look for the directories of killed embedded runs in " + parent + ": " + ex);
        }
        return deleted;
    }

    /** @return whether this process's user owns the file, by user id (Linux: the owner of /proc/self). */
    private static boolean isOwnUsers(final Path file) throws IOException
    {
        return Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS)
            .equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    }

    /**
     * @param directory an Aeron directory.
     * @return whether its media driver has beaten within Aeron's default driver timeout (10 s), without waiting:
     *         false for a driver that never finished starting (CnC version 0) or a missing or short CnC file.
     */
    static boolean isDriverBeating(final Path directory)
    {
        final File cncFile = directory.resolve(CncFileDescriptor.CNC_FILE).toFile();
        if (!cncFile.isFile() || cncFile.length() < CncFileDescriptor.END_OF_METADATA_OFFSET)
        {
            return false;
        }
        final MappedByteBuffer cnc = IoUtil.mapExistingFile(cncFile, CncFileDescriptor.CNC_FILE);
        try
        {
            final UnsafeBuffer metaData = CncFileDescriptor.createMetaDataBuffer(cnc);
            if (0 == metaData.getIntVolatile(CncFileDescriptor.cncVersionOffset(0)))
            {
                return false;
            }
            final ManyToOneRingBuffer toDriver =
                new ManyToOneRingBuffer(CncFileDescriptor.createToDriverBuffer(cnc, metaData));
            return System.currentTimeMillis() - toDriver.consumerHeartbeatTime() <=
                CommonContext.DEFAULT_DRIVER_TIMEOUT_MS;
        }
        finally
        {
            IoUtil.unmap(cnc);
        }
    }

    /** @return true when the directory and all in it are deleted, links as links. */
    private static boolean delete(final Path directory)
    {
        try
        {
            Files.walkFileTree(directory, new SimpleFileVisitor<>()
            {
                @Override
                public FileVisitResult visitFile(final Path file, final BasicFileAttributes attributes)
                    throws IOException
                {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(final Path visited, final IOException failure)
                    throws IOException
                {
                    if (null != failure)
                    {
                        throw failure;
                    }
                    Files.delete(visited);
                    return FileVisitResult.CONTINUE;
                }
            });
            return true;
        }
        catch (final NoSuchFileException ex)
        {
            return false; // another run starting deleted it first
        }
        catch (final IOException ex)
        {
            System.err.println("cannot delete " + directory + ", left by an embedded run that was killed: " + ex);
            return false;
        }
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
