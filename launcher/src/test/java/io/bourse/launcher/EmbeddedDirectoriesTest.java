package io.bourse.launcher;

import io.aeron.CncFileDescriptor;
import io.aeron.driver.MediaDriver;
import io.bourse.common.aeron.EmbeddedMediaDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class EmbeddedDirectoriesTest
{
    private static final String AERON = EmbeddedDirectories.AERON_DIR_PREFIX;
    private static final String JOURNAL = EmbeddedDirectories.JOURNAL_DIR_PREFIX;

    @TempDir
    Path parent;
    @TempDir
    Path elsewhere;

    @Test
    void shouldDeleteTheDirectoriesOfRunsWhoseProcessIsGoneAndKeepTheOthers() throws Exception
    {
        final long deadPid = exitedProcessId();
        final long livePid = ProcessHandle.current().pid();
        final Path deadAeron = directoryWithAFile(AERON + deadPid);
        final Path liveAeron = directoryWithAFile(AERON + livePid);
        final Path deadJournal = directoryWithAFile(JOURNAL + deadPid + "-12345");
        final Path liveJournal = directoryWithAFile(JOURNAL + livePid + "-67890");
        final Path notAProcessId = directoryWithAFile(AERON + "test");
        final Path otherName = directoryWithAFile("aeron-bourse-" + deadPid);
        final Path deadPidFile = Files.createFile(parent.resolve(JOURNAL + deadPid + "-1"));

        assertThat(EmbeddedDirectories.deleteOrphans(parent, AERON, (directory) -> false)).containsExactly(deadAeron);
        assertThat(EmbeddedDirectories.deleteOrphans(parent, JOURNAL, (directory) -> false))
            .containsExactly(deadJournal);

        assertThat(deadAeron).doesNotExist();
        assertThat(deadJournal).doesNotExist();
        assertThat(liveAeron).isDirectory();
        assertThat(liveJournal).isDirectory();
        assertThat(notAProcessId).isDirectory();
        assertThat(otherName).isDirectory();
        assertThat(deadPidFile).isRegularFile();
    }

    @Test
    void shouldKeepADirectoryStillInUseAlthoughItsProcessIsGone() throws Exception
    {
        final Path inUse = directoryWithAFile(AERON + exitedProcessId());

        assertThat(EmbeddedDirectories.deleteOrphans(parent, AERON, inUse::equals)).isEmpty();
        assertThat(inUse.resolve("cnc.dat")).isRegularFile();
    }

    @Test
    void shouldNeverFollowASymbolicLink() throws Exception
    {
        final long deadPid = exitedProcessId();
        final Path precious = Files.writeString(elsewhere.resolve("precious"), "keep");
        final Path linkAsDirectory = Files.createSymbolicLink(parent.resolve(JOURNAL + deadPid + "-1"), elsewhere);
        final Path orphan = directoryWithAFile(JOURNAL + deadPid + "-2");
        Files.createSymbolicLink(orphan.resolve("link"), elsewhere);

        assertThat(EmbeddedDirectories.deleteOrphans(parent, JOURNAL, (directory) -> false)).containsExactly(orphan);
        assertThat(orphan).doesNotExist();
        assertThat(linkAsDirectory).isSymbolicLink();
        assertThat(precious).hasContent("keep");
    }

    @Test
    void shouldTellARunningMediaDriverFromOneThatNeverFinishedStartingOrIsGone() throws IOException
    {
        try (MediaDriver driver = EmbeddedMediaDriver.launch("embedded-directories-test"))
        {
            assertThat(EmbeddedDirectories.isDriverBeating(Path.of(driver.aeronDirectoryName()))).isTrue();
        }
        final Path neverStarted = Files.createDirectory(parent.resolve("never-started"));
        Files.write(neverStarted.resolve(CncFileDescriptor.CNC_FILE), new byte[64 * 1024]);

        assertThat(EmbeddedDirectories.isDriverBeating(neverStarted)).as("CnC version 0").isFalse();
        assertThat(EmbeddedDirectories.isDriverBeating(parent.resolve("missing"))).isFalse();
    }

    @Test
    void shouldDeleteNothingWhereThereIsNoParent()
    {
        assertThat(EmbeddedDirectories.deleteOrphans(parent.resolve("missing"), AERON, (directory) -> false))
            .isEmpty();
    }

    @Test
    void shouldNameThisRunsDirectoriesAfterItsProcess() throws IOException
    {
        final long pid = ProcessHandle.current().pid();
        assertThat(EmbeddedDirectories.aeronDirectory()).isEqualTo("/dev/shm/aeron-bourse-embedded-" + pid);
        final Path journal = EmbeddedDirectories.createJournalDirectory();
        try
        {
            assertThat(journal.getFileName().toString()).startsWith("bourse-embedded-journal-" + pid + "-");
        }
        finally
        {
            Files.delete(journal);
        }
    }

    private Path directoryWithAFile(final String name) throws IOException
    {
        final Path directory = Files.createDirectory(parent.resolve(name));
        Files.writeString(directory.resolve("cnc.dat"), "x");
        return directory;
    }

    /** @return the process id of a process that has exited (a later process may take it again: unlikely here). */
    private static long exitedProcessId() throws Exception
    {
        final Process process = new ProcessBuilder("true").start();
        process.waitFor();
        return process.pid();
    }
}
