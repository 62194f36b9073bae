package io.bourse.gateway;

import io.aeron.Aeron;
import io.aeron.CncFileDescriptor;
import io.aeron.CommonContext;
import org.agrona.IoUtil;

import java.nio.MappedByteBuffer;

/**
 * The start time of the Aeron media driver a client is connected to, which tells one driver from the next: a driver
 * writes it into its CnC file's metadata ({@code cnc.dat}) when it starts, and a restarted driver (which deletes its
 * directory at start) writes a new one. The gateway journals it before the orders it sends ({@link OrderRecords}), so
 * that a later gateway knows which unanswered orders went through a driver that is gone.
 */
final class MediaDriverStart
{
    private MediaDriverStart()
    {
    }

    /**
     * The start time of the driver the gateway's commands go through, when they go through it alone: on an IPC
     * command channel. On a UDP one (engines on other hosts) the engines' own drivers carry the commands, and a
     * restart of this one does not end their streams.
     *
     * @param aeron          a connected client.
     * @param commandChannel the engine shards' command channel.
     * @return the start time of the client's media driver, ms since the epoch, for an IPC command channel; else 0
     *         (not known).
     * @throws IllegalStateException when the driver's CnC file is gone or holds no start time yet.
     */
    static long ofIpcCommands(final Aeron aeron, final String commandChannel)
    {
        return commandChannel.startsWith(CommonContext.IPC_CHANNEL) ? of(aeron) : 0;
    }

    /**
     * @param aeron a connected client.
     * @return the start time of its media driver, ms since the epoch.
     * @throws IllegalStateException when the driver's CnC file is gone (the driver stopped since the client
     *                               connected) or holds no start time yet (a new driver writing it).
     */
    static long of(final Aeron aeron)
    {
        final MappedByteBuffer cnc = aeron.context().mapExistingCncFile(null);
        if (null == cnc)
        {
            throw new IllegalStateException("the media driver's CnC file " + aeron.context().cncFile() +
                " is gone: the driver stopped");
        }
        try
        {
            final long startMs = CncFileDescriptor.startTimestampMs(CncFileDescriptor.createMetaDataBuffer(cnc));
            if (startMs <= 0)
            {
                throw new IllegalStateException("the media driver's CnC file " + aeron.context().cncFile() +
                    " holds no start time: a new driver is starting");
            }
            return startMs;
        }
        finally
        {
            IoUtil.unmap(cnc);
        }
    }
}
