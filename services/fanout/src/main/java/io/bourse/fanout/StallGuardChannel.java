package io.bourse.fanout;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A non-blocking socket channel that fails a write stuck on a full socket buffer. nassau's SoupBinTCP session writes
 * a packet by calling {@code write} until every byte is out; on a non-blocking channel to a subscriber that stopped
 * reading, that loop would spin forever and stall every other session of the worker. Through this channel, once a
 * write leaves bytes behind, the packet must be out within the send timeout or the write throws, and the session is
 * closed. Everything else is passed to the wrapped channel, which is the one registered with the worker's selector.
 */
final class StallGuardChannel extends SocketChannel
{
    private final SocketChannel delegate;
    private final long sendTimeoutNs;
    private boolean stalled;
    private long stalledSinceNs;

    /**
     * @param delegate      a connected, non-blocking channel.
     * @param sendTimeoutNs longest time a packet may stay partly written, in nanoseconds.
     */
    StallGuardChannel(final SocketChannel delegate, final long sendTimeoutNs)
    {
        super(delegate.provider());
        this.delegate = delegate;
        this.sendTimeoutNs = sendTimeoutNs;
    }

    @Override
    public int write(final ByteBuffer src) throws IOException
    {
        final int written = delegate.write(src);
        checkProgress(src.hasRemaining());
        return written;
    }

    @Override
    public long write(final ByteBuffer[] srcs, final int offset, final int length) throws IOException
    {
        final long written = delegate.write(srcs, offset, length);
        checkProgress(srcs[offset + length - 1].hasRemaining());
        return written;
    }

    private void checkProgress(final boolean bytesLeft) throws IOException
    {
        if (!bytesLeft)
        {
            stalled = false;
            return;
        }
        final long nowNs = System.nanoTime();
        if (!stalled)
        {
            stalled = true;
            stalledSinceNs = nowNs;
        }
        else if (nowNs - stalledSinceNs > sendTimeoutNs)
        {
            throw new IOException("subscriber not reading: packet not sent within " +
                TimeUnit.NANOSECONDS.toMillis(sendTimeoutNs) + " ms");
        }
    }

    @Override
    public int read(final ByteBuffer dst) throws IOException
    {
        return delegate.read(dst);
    }

    @Override
    public long read(final ByteBuffer[] dsts, final int offset, final int length) throws IOException
    {
        return delegate.read(dsts, offset, length);
    }

    @Override
    public SocketChannel bind(final SocketAddress local) throws IOException
    {
        delegate.bind(local);
        return this;
    }

    @Override
    public <T> SocketChannel setOption(final SocketOption<T> name, final T value) throws IOException
    {
        delegate.setOption(name, value);
        return this;
    }

    @Override
    public <T> T getOption(final SocketOption<T> name) throws IOException
    {
        return delegate.getOption(name);
    }

    @Override
    public Set<SocketOption<?>> supportedOptions()
    {
        return delegate.supportedOptions();
    }

    @Override
    public SocketChannel shutdownInput() throws IOException
    {
        delegate.shutdownInput();
        return this;
    }

    @Override
    public SocketChannel shutdownOutput() throws IOException
    {
        delegate.shutdownOutput();
        return this;
    }

    @Override
    public Socket socket()
    {
        return delegate.socket();
    }

    @Override
    public boolean isConnected()
    {
        return delegate.isConnected();
    }

    @Override
    public boolean isConnectionPending()
    {
        return delegate.isConnectionPending();
    }

    @Override
    public boolean connect(final SocketAddress remote) throws IOException
    {
        return delegate.connect(remote);
    }

    @Override
    public boolean finishConnect() throws IOException
    {
        return delegate.finishConnect();
    }

    @Override
    public SocketAddress getRemoteAddress() throws IOException
    {
        return delegate.getRemoteAddress();
    }

    @Override
    public SocketAddress getLocalAddress() throws IOException
    {
        return delegate.getLocalAddress();
    }

    @Override
    protected void implCloseSelectableChannel() throws IOException
    {
        delegate.close();
    }

    @Override
    protected void implConfigureBlocking(final boolean block) throws IOException
    {
        delegate.configureBlocking(block);
    }
}
