package io.bourse.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class EmbeddedDirectoriesTest
{
    @TempDir
    Path parent;

    @Test
    void shouldDeleteTheDirectoriesOfRunsWhoseProcessIsGoneAndKeepTheOthers() throws Exception
    {
        final long deadPid = exitedProcessId();
        final long livePid = ProcessHandle.current().pid();
        final Path deadAeron = directoryWithAFile(EmbeddedDirectories.AERON_DIR_PREFIX + deadPid);
        final Path liveAeron = directoryWithAFile(EmbeddedDirectories.AERON_DIR_PREFIX + livePid);
        final Path deadJournal = directoryWithAFile(EmbeddedDirectories.JOURNAL_DIR_PREFIX + deadPid + "-12345");
        final Path liveJournal = directoryWithAFile(EmbeddedDirectories.JOURNAL_DIR_PREFIX + livePid + "-67890");
        final Path notAProcessId = directoryWithAFile(EmbeddedDirectories.AERON_DIR_PREFIX + "test");
        final Path otherName = directoryWithAFile("aeron-bourse-" + deadPid);
        final Path deadPidFile = Files.createFile(parent.resolve(EmbeddedDirectories.JOURNAL_DIR_PREFIX + deadPid + "-1"));

        assertThat(EmbeddedDirectories.deleteOrphans(parent, EmbeddedDirectories.AERON_DIR_PREFIX))
            .containsExactly(deadAeron);
        assertThat(EmbeddedDirectories.deleteOrphans(parent, EmbeddedDirectories.JOURNAL_DIR_PREFIX))
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
    void shouldDeleteNothingWhereThereIsNoParent()
    {
        assertThat(EmbeddedDirectories.deleteOrphans(parent.resolve("missing"), EmbeddedDirectories.AERON_DIR_PREFIX))
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
            assertThat(EmbeddedDirectories.deleteOrphans(journal.getParent(), EmbeddedDirectories.JOURNAL_DIR_PREFIX))
                .doesNotContain(journal);
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

    /** @return the process id of a process that has exited. */
    private static long exitedProcessId() throws Exception
    {
        final Process process = new ProcessBuilder("true").start();
        process.waitFor();
        return process.pid();
    }
}
