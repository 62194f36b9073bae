package io.bourse.gateway;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** The small files of a day's journal directory that the gateway keeps mapped into memory. */
final class MappedFiles
{
    private MappedFiles()
    {
    }

    /**
     * Maps a file, created when missing, its bytes kept; one shorter than {@code length} is filled up with zeros. The
     * zeros are written, not only mapped: the disk space is taken now, so a full disk fails this call, never a store
     * into the mapping (which would fault).
     *
     * @param file   the file.
     * @param length bytes mapped, from its start.
     * @return the mapping, read-write.
     * @throws IOException when the file cannot be created, filled or mapped.
     */
    static MappedByteBuffer mapZeroFilled(final Path file, final int length) throws IOException
    {
        try (FileChannel channel = FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            long end = channel.size();
            final ByteBuffer zeros = ByteBuffer.allocate((int)Math.max(0, length - end));
            while (zeros.hasRemaining())
            {
                end += channel.write(zeros, end);
            }
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
        }
    }
}
