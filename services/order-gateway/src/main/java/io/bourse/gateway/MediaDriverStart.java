package io.bourse.gateway;

import io.aeron.Aeron;
import io.aeron.CncFileDescriptor;
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
     * @param aeron a connected client.
     * @return the start time of its media driver, ms since the epoch.
     * @throws IllegalStateException when the driver's CnC file is gone (the driver stopped since the client connected).
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
            return CncFileDescriptor.createMetaDataBuffer(cnc).getLong(CncFileDescriptor.startTimestampOffset(0));
        }
        finally
        {
            IoUtil.unmap(cnc);
        }
    }
}
