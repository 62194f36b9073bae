package io.bourse.common.net;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Set;

/**
 * A {@link SocketChannel} that passes reads, options, connecting and closing straight to a connected channel, so that
 * a subclass changes only how writes reach it: the view of a socket that nassau's SoupBinTCP sessions write through.
 * The wrapped channel, not this view, is the one to register with a selector. Closing this view closes the wrapped
 * channel; subclasses that hold resources release them in {@link #implCloseSelectableChannel()} after calling it.
 */
public abstract class ForwardingSocketChannel extends SocketChannel
{
    /** The wrapped channel. */
    protected final SocketChannel delegate;

    /**
     * @param delegate a connected channel.
     */
    protected ForwardingSocketChannel(final SocketChannel delegate)
    {
        super(delegate.provider());
        this.delegate = delegate;
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
