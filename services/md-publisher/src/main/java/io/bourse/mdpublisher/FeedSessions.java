package io.bourse.mdpublisher;

import org.agrona.CloseHelper;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Opens and closes the MoldUDP64 feed's day sessions ({@link FeedSession}) on a thread of their own, so that the
 * md-publisher's thread, which sends the market data, does not wait for that work: a new day's session, whose store
 * zeroes its memory (46 MB with the default {@code BOURSE_MD_MOLD_STORE_MESSAGES}) and creates its session file, is
 * {@linkplain #prepare prepared} ahead of midnight and {@linkplain #take taken} at midnight; an ended session, whose
 * store frees the memory and deletes the file (up to 1 GiB with the default {@code BOURSE_MD_MOLD_STORE_FILE_BYTES}),
 * is {@linkplain #retire closed} there once its end is over. On the 2-core development host, zeroing the store took
 * 26 to 50 ms, creating the file 1 to 19 ms and deleting a full file 130 to 160 ms, during which the md-publisher's
 * thread, had it done the work, would have sent nothing.
 * <p>
 * A session that could not be prepared (say, the direct memory's cap reached) is counted in
 * {@code bourse_md_mold_errors_total}, logged, and opened again at midnight on the agent's thread, as before the
 * sessions had a thread of their own; a session that fails to close is counted and logged. One thread calls
 * {@link #prepare}, {@link #take} and {@link #retire}: the feed agent's. {@link #close} waits for the work still to
 * do; call it once the agent has stopped.
 */
final class FeedSessions implements AutoCloseable
{
    /** Name of the thread that opens and closes the sessions. */
    static final String THREAD_NAME = "md-mold-sessions";
    /** Longest wait at {@link #close} for the sessions still to close, in seconds. */
    static final long CLOSE_TIMEOUT_S = 10;

    private final FeedSession.Factory factory;
    private final ExecutorService executor;
    private final MoldMetrics metrics;
    private String preparedName;
    private CompletableFuture<FeedSession> prepared;

    /**
     * @param factory opens a session, on the sessions' thread.
     * @param metrics counts the sessions that could not be prepared or closed.
     */
    FeedSessions(final FeedSession.Factory factory, final MoldMetrics metrics)
    {
        this(factory, Executors.newSingleThreadExecutor(FeedSessions::newThread), metrics);
    }

    /**
     * @param factory  opens a session, on the executor.
     * @param executor runs the opening and closing, one at a time, in order; shut down at {@link #close}.
     * @param metrics  counts the sessions that could not be prepared or closed.
     */
    FeedSessions(final FeedSession.Factory factory, final ExecutorService executor, final MoldMetrics metrics)
    {
        this.factory = factory;
        this.executor = executor;
        this.metrics = metrics;
    }

    /**
     * Starts opening the session of that name on the sessions' thread.
     *
     * @param name the session's name ({@link io.bourse.common.time.SessionNames}).
     * @throws IllegalStateException when a session prepared is not taken yet.
     */
    void prepare(final String name)
    {
        if (null != prepared)
        {
            throw new IllegalStateException("a session prepared is not taken yet");
        }
        preparedName = name;
        try
        {
            prepared = CompletableFuture.supplyAsync(() -> factory.open(name), executor);
        }
        catch (final RejectedExecutionException ex)
        {
            prepared = CompletableFuture.failedFuture(ex);
        }
    }

    /** @return whether a session is prepared, or being prepared, and not taken yet. */
    boolean isPrepared()
    {
        return null != prepared;
    }

    /**
     * @return the session {@linkplain #prepare prepared}, waited for while it is still opening; or, when it could not
     *         be prepared (counted and logged), opened now on this thread.
     * @throws IllegalStateException when none was prepared.
     * @throws RuntimeException      the factory's, or its {@link Error}, when the session cannot be opened now either.
     */
    FeedSession take()
    {
        final CompletableFuture<FeedSession> session = prepared;
        if (null == session)
        {
            throw new IllegalStateException("no session prepared");
        }
        prepared = null;
        try
        {
            return session.join();
        }
        catch (final CompletionException ex)
        {
            metrics.onError();
            System.err.println("[md-publisher] MoldUDP64 session " + preparedName + " not prepared ahead, " +
                "opening it now: " + ex.getCause());
            return factory.open(preparedName);
        }
    }

    /**
     * Closes an ended session on the sessions' thread: its store's memory is freed and its file deleted there. The
     * session must no longer be used.
     *
     * @param session the ended session.
     */
    void retire(final FeedSession session)
    {
        executor.execute(() -> close(session));
    }

    /**
     * Closes a session prepared but not taken, once open, then waits for the sessions still to close, at most
     * {@value #CLOSE_TIMEOUT_S} s, so that their files are deleted before the md-publisher exits.
     */
    @Override
    public void close()
    {
        if (null != prepared)
        {
            prepared.thenAccept(CloseHelper::quietClose);
            prepared = null;
        }
        executor.shutdown();
        try
        {
            if (!executor.awaitTermination(CLOSE_TIMEOUT_S, TimeUnit.SECONDS))
            {
                System.err.println("[md-publisher] MoldUDP64 sessions still closing after " + CLOSE_TIMEOUT_S +
                    " s: their session files may be left, deleted by the next md-publisher to use the directory");
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private void close(final FeedSession session)
    {
        try
        {
            session.close();
        }
        catch (final RuntimeException ex)
        {
            metrics.onError();
            System.err.println("[md-publisher] MoldUDP64 session " + session.name + " not closed: " + ex);
        }
    }

    private static Thread newThread(final Runnable task)
    {
        final Thread thread = new Thread(task, THREAD_NAME);
        thread.setDaemon(true);
        return thread;
    }
}
