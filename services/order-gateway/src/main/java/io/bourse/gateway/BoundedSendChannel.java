package io.bourse.gateway;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Set;

/**
 * The view of a non-blocking client channel that nassau writes through. nassau's SoupBinTCP session writes each
 * packet whole, retrying until the socket takes it; against a client that stops reading that would spin forever on
 * the gateway's only thread. Here a write that makes no progress for longer than the stall timeout throws instead,
 * so that one slow client is dropped rather than stalling every session. Reads and closing pass straight through;
 * the underlying channel, not this view, is the one registered with the selector.
 */
final class BoundedSendChannel extends SocketChannel
{
    private final SocketChannel delegate;
    private final long stallTimeoutNs;
    private long stallStartNs;
    private boolean stalled;

    /**
     * @param delegate       the accepted, non-blocking channel.
     * @param stallTimeoutNs how long writes may make no progress before failing.
     */
    BoundedSendChannel(final SocketChannel delegate, final long stallTimeoutNs)
    {
        super(delegate.provider());
        this.delegate = delegate;
        this.stallTimeoutNs = stallTimeoutNs;
    }

    @Override
    public int write(final ByteBuffer src) throws IOException
    {
        return (int)progress(delegate.write(src));
    }

    @Override
    public long write(final ByteBuffer[] srcs, final int offset, final int length) throws IOException
    {
        return progress(delegate.write(srcs, offset, length));
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

    private long progress(final long written) throws IOException
    {
        if (written > 0)
        {
            stalled = false;
            return written;
        }
        final long nowNs = System.nanoTime();
        if (!stalled)
        {
            stalled = true;
            stallStartNs = nowNs;
        }
        else if (nowNs - stallStartNs > stallTimeoutNs)
        {
            throw new IOException("client not reading: send stalled for more than " + stallTimeoutNs + " ns");
        }
        Thread.onSpinWait();
        return written;
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
