package io.bourse.gateway;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.AlreadyConnectedException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.IllegalSelectorException;
import java.nio.channels.NotYetConnectedException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.AbstractSelectableChannel;
import java.nio.channels.spi.AbstractSelectionKey;
import java.nio.channels.spi.AbstractSelector;
import java.nio.channels.spi.SelectorProvider;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Non-blocking TCP in memory, for driving the real gateway agent ({@link GatewayAgent#doWork()}) thousands of times a
 * second without the kernel: a listening {@link ServerSocketChannel}, connected {@link SocketChannel} pairs and a
 * {@link Selector} over them, with the readiness rules of the JDK's own: a socket is readable while bytes wait or its
 * peer has closed or shut its output down (then a read returns -1 once the bytes are read), writable while its peer's
 * receive window has room (a write to a closed peer fails); a listening channel is acceptable while a connection
 * waits; closing a channel cancels its keys, and a cancelled key throws {@link CancelledKeyException} as the JDK's
 * does. A read takes at most {@code segmentBytes} (the server's view of TCP segmentation), so packets arrive split.
 * The selector calls its action in registration order, so that a run is reproducible. Single-threaded, like the
 * agent.
 */
final class MemoryNetwork
{
    private MemoryNetwork()
    {
    }

    /** What the selector asks of a channel: the operations it is ready for now. */
    private interface Ready
    {
        int readyOps();
    }

    /** A listening channel; {@link #connect} is the client's side of a connect. */
    static final class Server extends ServerSocketChannel implements Ready
    {
        private final ArrayDeque<Endpoint> backlog = new ArrayDeque<>();
        private final InetSocketAddress address;
        private int nextPort = 40_000;

        /** A channel listening on 127.0.0.1:15000 (nothing is bound). */
        Server()
        {
            super(SelectorProvider.provider());
            address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 15_000);
        }

        /**
         * Connects a client: the server's end waits to be accepted.
         *
         * @param segmentBytes most bytes the server's end reads at once, at least 1.
         * @param windowBytes  most bytes either end holds unread before writes to it stop.
         * @return the client's end.
         */
        Endpoint connect(final int segmentBytes, final int windowBytes)
        {
            final InetSocketAddress clientAddress = new InetSocketAddress(address.getAddress(), nextPort++);
            final Endpoint client = new Endpoint(clientAddress, address, windowBytes, Integer.MAX_VALUE);
            final Endpoint server = new Endpoint(address, clientAddress, windowBytes, segmentBytes);
            client.peer = server;
            server.peer = client;
            backlog.add(server);
            return client;
        }

        @Override
        public SocketChannel accept() throws IOException
        {
            if (!isOpen())
            {
                throw new ClosedChannelException();
            }
            return backlog.poll();
        }

        @Override
        public int readyOps()
        {
            return backlog.isEmpty() ? 0 : SelectionKey.OP_ACCEPT;
        }

        @Override
        public ServerSocketChannel bind(final SocketAddress local, final int backlog)
        {
            return this;
        }

        @Override
        public <T> ServerSocketChannel setOption(final SocketOption<T> name, final T value)
        {
            return this;
        }

        @Override
        public <T> T getOption(final SocketOption<T> name)
        {
            throw new UnsupportedOperationException(name.name());
        }

        @Override
        public Set<SocketOption<?>> supportedOptions()
        {
            return Set.of();
        }

        @Override
        public ServerSocket socket()
        {
            throw new UnsupportedOperationException("no java.net view of an in-memory channel");
        }

        @Override
        public SocketAddress getLocalAddress()
        {
            return address;
        }

        @Override
        protected void implCloseSelectableChannel()
        {
            backlog.clear();
        }

        @Override
        protected void implConfigureBlocking(final boolean block)
        {
            // Never blocks: accept returns null when no connection waits.
        }
    }

    /** One end of a connection. */
    static final class Endpoint extends SocketChannel implements Ready
    {
        private final InetSocketAddress localAddress;
        private final InetSocketAddress remoteAddress;
        private final int windowBytes;
        private final int segmentBytes;
        private final Map<SocketOption<?>, Object> options = new HashMap<>();
        private byte[] inbound = new byte[256];
        private int inboundStart;
        private int inboundEnd;
        private boolean peerClosed;
        private boolean outputShutDown;
        private Endpoint peer;

        private Endpoint(
            final InetSocketAddress localAddress,
            final InetSocketAddress remoteAddress,
            final int windowBytes,
            final int segmentBytes)
        {
            super(SelectorProvider.provider());
            this.localAddress = localAddress;
            this.remoteAddress = remoteAddress;
            this.windowBytes = windowBytes;
            this.segmentBytes = segmentBytes;
        }

        /** @return the other end. */
        Endpoint peer()
        {
            return peer;
        }

        /** @return bytes the peer wrote that this end has not read yet. */
        int available()
        {
            return inboundEnd - inboundStart;
        }

        /** @return true once the peer closed or shut its output down. */
        boolean isPeerClosed()
        {
            return peerClosed;
        }

        /**
         * @return the bytes the peer wrote since the last call, without going through {@link #read}.
         */
        byte[] takeAvailable()
        {
            final byte[] bytes = Arrays.copyOfRange(inbound, inboundStart, inboundEnd);
            inboundStart = inboundEnd;
            return bytes;
        }

        @Override
        public int read(final ByteBuffer dst) throws IOException
        {
            if (!isOpen())
            {
                throw new ClosedChannelException();
            }
            final int available = available();
            if (0 == available)
            {
                return peerClosed ? -1 : 0;
            }
            final int length = Math.min(Math.min(available, dst.remaining()), segmentBytes);
            dst.put(inbound, inboundStart, length);
            inboundStart += length;
            return length;
        }

        @Override
        public long read(final ByteBuffer[] dsts, final int offset, final int length) throws IOException
        {
            long total = 0;
            for (int i = offset; i < offset + length; i++)
            {
                final int read = read(dsts[i]);
                if (read < 0)
                {
                    return 0 == total ? -1 : total;
                }
                total += read;
                if (dsts[i].hasRemaining())
                {
                    break;
                }
            }
            return total;
        }

        @Override
        public int write(final ByteBuffer src) throws IOException
        {
            if (!isOpen() || outputShutDown)
            {
                throw new ClosedChannelException();
            }
            if (!peer.isOpen())
            {
                throw new IOException("Broken pipe");
            }
            final int length = Math.min(src.remaining(), peer.windowBytes - peer.available());
            peer.append(src, length);
            return length;
        }

        @Override
        public long write(final ByteBuffer[] srcs, final int offset, final int length) throws IOException
        {
            long total = 0;
            for (int i = offset; i < offset + length; i++)
            {
                total += write(srcs[i]);
                if (srcs[i].hasRemaining())
                {
                    break;
                }
            }
            return total;
        }

        @Override
        public int readyOps()
        {
            int ops = 0;
            if (available() > 0 || peerClosed)
            {
                ops |= SelectionKey.OP_READ;
            }
            if (!peer.isOpen() || peer.available() < peer.windowBytes)
            {
                ops |= SelectionKey.OP_WRITE;
            }
            return ops;
        }

        private void append(final ByteBuffer src, final int length)
        {
            if (inboundEnd + length > inbound.length)
            {
                final int kept = available();
                final byte[] grown = kept + length > inbound.length ?
                    new byte[Math.max(inbound.length * 2, kept + length)] : inbound;
                System.arraycopy(inbound, inboundStart, grown, 0, kept);
                inbound = grown;
                inboundStart = 0;
                inboundEnd = kept;
            }
            src.get(inbound, inboundEnd, length);
            inboundEnd += length;
        }

        @Override
        protected void implCloseSelectableChannel()
        {
            peer.peerClosed = true;
        }

        @Override
        protected void implConfigureBlocking(final boolean block)
        {
            // Never blocks: a read with nothing to read returns 0, a write to a full window writes less.
        }

        @Override
        public SocketChannel bind(final SocketAddress local)
        {
            throw new AlreadyConnectedException();
        }

        @Override
        public <T> SocketChannel setOption(final SocketOption<T> name, final T value) throws IOException
        {
            if (!isOpen())
            {
                throw new ClosedChannelException();
            }
            options.put(name, value);
            return this;
        }

        @Override
        public <T> T getOption(final SocketOption<T> name)
        {
            final Object value = options.get(name);
            return name.type().cast(null != value ? value : Boolean.class == name.type() ? Boolean.FALSE : 0);
        }

        @Override
        public Set<SocketOption<?>> supportedOptions()
        {
            return Set.of(StandardSocketOptions.TCP_NODELAY, StandardSocketOptions.SO_SNDBUF,
                StandardSocketOptions.SO_RCVBUF, StandardSocketOptions.SO_KEEPALIVE);
        }

        @Override
        public SocketChannel shutdownInput()
        {
            throw new UnsupportedOperationException("shutdownInput");
        }

        /** Half-closes: the peer reads the bytes written so far, then the end of the stream; writes fail from now. */
        @Override
        public SocketChannel shutdownOutput() throws IOException
        {
            if (!isOpen())
            {
                throw new ClosedChannelException();
            }
            outputShutDown = true;
            peer.peerClosed = true;
            return this;
        }

        @Override
        public Socket socket()
        {
            throw new UnsupportedOperationException("no java.net view of an in-memory channel");
        }

        @Override
        public boolean isConnected()
        {
            return isOpen();
        }

        @Override
        public boolean isConnectionPending()
        {
            return false;
        }

        @Override
        public boolean connect(final SocketAddress remote)
        {
            throw new AlreadyConnectedException();
        }

        @Override
        public boolean finishConnect()
        {
            return true;
        }

        @Override
        public SocketAddress getRemoteAddress() throws IOException
        {
            if (!isOpen())
            {
                throw new ClosedChannelException();
            }
            return remoteAddress;
        }

        @Override
        public SocketAddress getLocalAddress()
        {
            if (null == peer)
            {
                throw new NotYetConnectedException();
            }
            return localAddress;
        }

        @Override
        public String toString()
        {
            return "MemoryNetwork.Endpoint[" + localAddress + " -> " + remoteAddress + "]";
        }
    }

    /** A selector over in-memory channels; selection never blocks. */
    static final class MemorySelector extends AbstractSelector
    {
        private final List<Key> keys = new ArrayList<>();
        private final Set<SelectionKey> selectedKeys = new LinkedHashSet<>();

        MemorySelector()
        {
            super(SelectorProvider.provider());
        }

        @Override
        protected SelectionKey register(final AbstractSelectableChannel channel, final int ops, final Object att)
        {
            if (!(channel instanceof Ready))
            {
                throw new IllegalSelectorException();
            }
            final Key key = new Key(this, channel, ops);
            key.attach(att);
            keys.add(key);
            return key;
        }

        @Override
        public Set<SelectionKey> keys()
        {
            return Collections.unmodifiableSet(new LinkedHashSet<>(keys));
        }

        @Override
        public Set<SelectionKey> selectedKeys()
        {
            return selectedKeys;
        }

        @Override
        public int selectNow()
        {
            removeCancelled();
            int selected = 0;
            for (final Key key : keys)
            {
                if (key.select())
                {
                    selectedKeys.add(key);
                    selected++;
                }
            }
            return selected;
        }

        @Override
        public int selectNow(final Consumer<SelectionKey> action)
        {
            removeCancelled();
            int selected = 0;
            for (final Key key : List.copyOf(keys))
            {
                if (key.isValid() && key.select())
                {
                    selected++;
                    action.accept(key);
                }
            }
            return selected;
        }

        @Override
        public int select(final long timeout)
        {
            return selectNow();
        }

        @Override
        public int select()
        {
            return selectNow();
        }

        @Override
        public Selector wakeup()
        {
            return this;
        }

        @Override
        protected void implCloseSelector()
        {
            for (final Key key : List.copyOf(keys))
            {
                key.cancel();
            }
            removeCancelled();
        }

        private void removeCancelled()
        {
            final Set<SelectionKey> cancelled = cancelledKeys();
            if (!cancelled.isEmpty())
            {
                for (final SelectionKey key : cancelled)
                {
                    keys.remove(key);
                    selectedKeys.remove(key);
                    deregister((AbstractSelectionKey)key);
                }
                cancelled.clear();
            }
        }
    }

    /** A registration of an in-memory channel with a {@link MemorySelector}. */
    private static final class Key extends AbstractSelectionKey
    {
        private final MemorySelector selector;
        private final SelectableChannel channel;
        private int interestOps;
        private int readyOps;

        Key(final MemorySelector selector, final SelectableChannel channel, final int interestOps)
        {
            this.selector = selector;
            this.channel = channel;
            this.interestOps = interestOps;
        }

        boolean select()
        {
            readyOps = interestOps & ((Ready)channel).readyOps();
            return 0 != readyOps;
        }

        @Override
        public SelectableChannel channel()
        {
            return channel;
        }

        @Override
        public Selector selector()
        {
            return selector;
        }

        @Override
        public int interestOps()
        {
            ensureValid();
            return interestOps;
        }

        @Override
        public SelectionKey interestOps(final int ops)
        {
            ensureValid();
            if ((ops & ~channel.validOps()) != 0)
            {
                throw new IllegalArgumentException("ops " + ops);
            }
            interestOps = ops;
            return this;
        }

        @Override
        public int readyOps()
        {
            ensureValid();
            return readyOps;
        }

        private void ensureValid()
        {
            if (!isValid())
            {
                throw new CancelledKeyException();
            }
        }
    }
}
