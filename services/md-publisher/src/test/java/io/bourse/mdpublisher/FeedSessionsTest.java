package io.bourse.mdpublisher;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The day sessions' thread: real sessions, each with its store and session file on disk, opened and closed there
 * rather than on the feed agent's thread (here the test's).
 */
@Timeout(30)
class FeedSessionsTest
{
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final MoldMetrics metrics = new MoldMetrics(registry);
    @TempDir
    private Path storeDir;
    private DatagramChannel channel;
    private volatile String openingThread;

    @BeforeEach
    void setUp() throws IOException
    {
        channel = DatagramChannel.open();
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.close(channel);
    }

    @Test
    void shouldOpenThePreparedSessionOnTheSessionsThread()
    {
        final FeedSessions sessions = new FeedSessions(this::openSession, metrics);
        FeedSession session = null;
        try
        {
            sessions.prepare("20241005");
            session = sessions.take();

            assertThat(session.name).isEqualTo("20241005");
            assertThat(openingThread).isEqualTo(FeedSessions.THREAD_NAME);
            assertThat(session.store.sessionFilePath()).exists();
        }
        finally
        {
            CloseHelper.closeAll(session, sessions);
        }
    }

    /** A retired session is closed on the sessions' thread, in turn after the work given before it: not at once. */
    @Test
    void shouldCloseARetiredSessionOnTheSessionsThread() throws InterruptedException
    {
        final ExecutorService executor = Executors.newSingleThreadExecutor();
        final FeedSessions sessions = new FeedSessions(this::openSession, executor, metrics);
        final FeedSession session = openSession("20241004");
        final Path file = session.store.sessionFilePath();
        final CountDownLatch busy = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        try
        {
            executor.execute(() ->
            {
                busy.countDown();
                awaitQuietly(release);
            });
            busy.await();

            sessions.retire(session);
            assertThat(file).as("not closed on the caller's thread").exists();
        }
        finally
        {
            release.countDown();
            sessions.close();
        }
        assertThat(file).doesNotExist();
        assertThat(errors()).isZero();
    }

    /**
     * A session that could not be prepared (the direct memory's cap reached 10 s before midnight) is counted, and
     * opened at midnight on the agent's thread, as before the sessions had a thread of their own.
     */
    @Test
    void shouldOpenASessionThatCouldNotBePreparedWhenItIsTaken()
    {
        final AtomicInteger attempts = new AtomicInteger();
        final FeedSessions sessions = new FeedSessions((name) ->
        {
            if (1 == attempts.incrementAndGet())
            {
                throw new OutOfMemoryError("Cannot reserve 46000000 bytes of direct buffer memory");
            }
            return openSession(name);
        }, metrics);
        FeedSession session = null;
        try
        {
            sessions.prepare("20241005");
            session = sessions.take();

            assertThat(session.name).isEqualTo("20241005");
            assertThat(openingThread).isEqualTo(Thread.currentThread().getName());
            assertThat(errors()).isEqualTo(1);
        }
        finally
        {
            CloseHelper.closeAll(session, sessions);
        }
    }

    /** The factory's failure reaches the agent when the session cannot be opened at midnight either. */
    @Test
    void shouldThrowTheFactorysFailureWhenTheSessionCannotBeOpened()
    {
        final FeedSessions sessions = new FeedSessions((name) ->
        {
            throw new OutOfMemoryError("Cannot reserve 46000000 bytes of direct buffer memory");
        }, metrics);
        try
        {
            sessions.prepare("20241005");

            assertThatThrownBy(sessions::take).isInstanceOf(OutOfMemoryError.class)
                .hasMessageContaining("direct buffer memory");
            assertThatThrownBy(sessions::take).as("nothing prepared any more")
                .isInstanceOf(IllegalStateException.class);
        }
        finally
        {
            sessions.close();
        }
    }

    /** A session prepared and not taken by the time the feed stops is closed, its file deleted. */
    @Test
    void shouldCloseASessionPreparedButNotTaken() throws IOException
    {
        final FeedSessions sessions = new FeedSessions(this::openSession, metrics);
        sessions.prepare("20241005");

        sessions.close();

        try (var files = Files.list(storeDir))
        {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void shouldRefuseToPrepareTwoSessionsAtOnce()
    {
        final FeedSessions sessions = new FeedSessions(this::openSession, metrics);
        FeedSession session = null;
        try
        {
            sessions.prepare("20241005");

            assertThat(sessions.isPrepared()).isTrue();
            assertThatThrownBy(() -> sessions.prepare("20241006")).isInstanceOf(IllegalStateException.class);
            session = sessions.take();
            assertThat(sessions.isPrepared()).isFalse();
        }
        finally
        {
            CloseHelper.closeAll(session, sessions);
        }
    }

    private FeedSession openSession(final String name)
    {
        openingThread = Thread.currentThread().getName();
        try
        {
            return new FeedSession(name, new MoldSessionServer(channel, name), new MoldMessageStore(
                8, MoldFeedAgent.MAX_MESSAGE_LENGTH, 1400, MoldSessionFile.create(storeDir, name, 1 << 20), metrics));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private long errors()
    {
        return Counters.value(registry, "bourse_md_mold_errors", null);
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
