package io.bourse.gateway;

import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Temporary directories in memory ({@code /dev/shm}) where the host has it, else in the default temporary directory:
 * for tests that create and delete files thousands of times a second (the fuzz tests' session journals), where a
 * disk's file system would spend most of the time deleting.
 */
final class MemoryTempDirFactory implements TempDirFactory
{
    private static final Path SHARED_MEMORY = Path.of("/dev/shm");

    @Override
    public Path createTempDirectory(final AnnotatedElementContext elementContext, final ExtensionContext context)
        throws IOException
    {
        return Files.isDirectory(SHARED_MEMORY) && Files.isWritable(SHARED_MEMORY) ?
            Files.createTempDirectory(SHARED_MEMORY, "bourse-test-") : Files.createTempDirectory("bourse-test-");
    }
}
