package io.bourse.gateway;

import io.bourse.common.metrics.Readiness;
import io.bourse.common.net.SendBufferPool;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.common.time.SessionNames;
import org.agrona.CloseHelper;

import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;

/**
 * Opens the gateway's trading days ({@link TradingDay}): the first at the start, on the journals of its session,
 * its sessions and their orders rebuilt from them; and, with daily sessions ({@link GatewayContext#dailySessions()}:
 * no session name configured), the next one once a day has closed ({@link MarketClose.State#CLOSED}) and the clock has
 * passed the next midnight UTC. Day {@code k} is the session named after the UTC date {@code k} days after the
 * clock's start ({@code yyyyMMdd}), with its own journal directory, no session, no order and every Order Token unused,
 * closing at {@code k} days plus the close time; its session indexes continue from the day before's (recorded in its
 * directory, {@link JournalStore#sessionIndexFloor}, for a restart), so that the events of an order still in the
 * engine (one the close could not cancel within its drain time) reach no order of the new day. At the start, the
 * orders other days' journals leave open are canceled ({@link #cancelOrdersOfOtherDays}). A gateway with a
 * configured session name has that one day only: once closed, it stays closed. Used by the gateway agent's thread
 * (and at the start, before it runs).
 */
final class TradingDays
{

    private final GatewayContext ctx;
    private final EngineProxy engine;
    private final OuchProxy ouch;
    private final GatewayMetrics metrics;
    private final DutyCycleClock clock;
    private final SendBufferPool sendBuffers;
    private final Readiness eventCatchUp;
    /** Start time of the media driver the commands go through, ms since the epoch; 0 when not known. */
    private final long mediaDriverStartMs;
    /** Deleting the journals of the days past their retention, or done; one at a time. */
    private Thread retentionThread;

    /**
     * @param ctx          concluded configuration.
     * @param engine       where the days' engine commands go.
     * @param ouch         the OUCH encoder of the days' messages.
     * @param metrics      the gateway's metrics, which every day counts into.
     * @param clock        the agent's duty-cycle clock; with daily sessions it must run on a {@code MidnightNanoClock},
     *                     whose start date names the first day.
     * @param eventCatchUp whether the engine shards' event streams have been caught up ({@link SessionRegistry}).
     * @param mediaDriverStartMs start time of the media driver the commands go through, ms since the epoch
     *                           ({@link MediaDriverStart}); 0 when not known (tests without Aeron).
     */
    TradingDays(
        final GatewayContext ctx,
        final EngineProxy engine,
        final OuchProxy ouch,
        final GatewayMetrics metrics,
        final DutyCycleClock clock,
        final Readiness eventCatchUp,
        final long mediaDriverStartMs)
    {
        this.ctx = ctx;
        this.engine = engine;
        this.ouch = ouch;
        this.metrics = metrics;
        this.clock = clock;
        this.sendBuffers = new SendBufferPool(ctx.sendBufferBytes(), metrics.sendBufferBytes);
        this.eventCatchUp = eventCatchUp;
        this.mediaDriverStartMs = mediaDriverStartMs;
    }

    /**
     * @param ctx   concluded configuration.
     * @param clock the agent's clock, on a {@code MidnightNanoClock} with daily sessions.
     * @return the session name of the gateway's first day: the configured one, or the UTC date of the clock's start.
     */
    static String firstSessionName(final GatewayContext ctx, final DutyCycleClock clock)
    {
        return ctx.dailySessions() ? SessionNames.ofDate(clock.startDate()) : ctx.sessionName();
    }

    /**
     * Opens the first day on its recovered journals: its sessions restored and their orders rebuilt
     * ({@link SessionRegistry#restoreSessions}), the restored orders' cancels on disconnect kept.
     *
     * @param journals the first day's journals, recovered ({@link #firstSessionName}); the day closes them.
     * @return the day.
     * @throws IOException when a journal cannot be read, its {@link CollarReferences} cannot be opened, or with the
     *                     event archive its {@link EventPositions}.
     */
    TradingDay openFirst(final JournalStore journals) throws IOException
    {
        return open(0, journals);
    }

    /**
     * @param day        the current day.
     * @param midnightNs the duty cycle's time, ns since the midnight of the clock's start.
     * @return true when the next day is to be opened: daily sessions, the day closed, and its midnight passed.
     */
    boolean isNextDayDue(final TradingDay day, final long midnightNs)
    {
        return ctx.dailySessions() && MarketClose.State.CLOSED == day.marketClose().state() &&
            midnightNs >= (day.index() + 1L) * MidnightNanoClock.NANOS_PER_DAY;
    }

    /**
     * Opens the day of the clock's date: its journals created (or recovered, if a gateway ran that day before) under
     * the date's session name, its session indexes continued from the closing day's (recorded in its directory). The
     * closing day is left as it is: the caller ends its connections and closes it.
     *
     * @param closed     the day that closed.
     * @param midnightNs the duty cycle's time, ns since the midnight of the clock's start.
     * @return the new day.
     * @throws IOException when its journal directory, a journal in it, its {@link CollarReferences} or with the
     *                     event archive its {@link EventPositions} cannot be opened.
     */
    TradingDay openNext(final TradingDay closed, final long midnightNs) throws IOException
    {
        final int index = (int)(midnightNs / MidnightNanoClock.NANOS_PER_DAY);
        final String sessionName = SessionNames.ofDate(clock.startDate().plusDays(index));
        final JournalStore journals = JournalStore.open(
            Path.of(ctx.journalDir()), sessionName, ctx.journalSync(), ctx.journalPretouchBytes(), metrics);
        try
        {
            journals.sessionIndexFloor(closed.sessionIndexes().largestKnown());
            return open(index, journals);
        }
        catch (final IOException | RuntimeException ex)
        {
            CloseHelper.quietClose(journals);
            throw ex;
        }
    }

    /**
     * At a gateway's start, for the other trading days in the journal directory whose orders may still be in the
     * engine ({@link JournalStore#otherDaysToCancel}: a day the gateway was stopped in before its close, or one closed
     * with cancels its shards had not taken): rebuilds each day's orders from its journals, as a restart on that day
     * would, and keeps a cancel of each order left open, sent as the close's once the shards' events are caught up and
     * the shards take commands. An order of an earlier day thus no longer trades against a later day's, with no
     * session to hear of it (OUCH 4.2 has no order that outlives its day). A day with no open order is marked done
     * with here, one with some once its cancels are taken ({@link ClosedDayCancels#markWhenSent}); a cancel of an
     * order that traded or was canceled after its journal's end changes nothing in the engine. As in a restart on the
     * day, an order of another gateway id or of a shard this gateway no longer has is not rebuilt, and so not
     * canceled. With daily sessions and a close time, a day dated before the first, whose close has passed, also gets
     * the End of Day its close would have journaled (a gateway stopped before its close, or while a 00:00 close waited
     * for its cancels, and started on the next date). Logs a line per day with open orders.
     *
     * @param first            the first day's journals, recovered: its directory's parent is searched, it is not.
     * @param closedDayCancels where the cancels are kept.
     * @throws IOException when the journal directory cannot be read; a day whose journals cannot be is counted and
     *                     logged as {@link GatewayError#JOURNAL_FAILED}, left unmarked, and skipped.
     */
    void cancelOrdersOfOtherDays(final JournalStore first, final ClosedDayCancels closedDayCancels) throws IOException
    {
        for (final String sessionName : first.otherDaysToCancel())
        {
            final Path directory = first.directory().resolveSibling(JournalStore.encode(sessionName));
            try (JournalStore journals =
                JournalStore.open(directory.getParent(), sessionName, ctx.journalSync(), 0, metrics))
            {
                final SessionIndexes sessionIndexes = new SessionIndexes(journals.maxSessionIndex());
                final OrderEntry orderEntry =
                    newOrderEntry(sessionIndexes, CollarReferences.inMemory(ctx.symbolDirectory()));
                final SessionRegistry registry = restoreSessions(journals, sessionIndexes, orderEntry);
                final int cancels = orderEntry.carryOpenOrdersTo(closedDayCancels);
                orderEntry.freeTradedOrders();
                if (isClosedBefore(sessionName, first.sessionName()))
                {
                    endDay(registry);
                }
                if (0 == cancels)
                {
                    JournalStore.markOrdersCanceled(directory);
                }
                else
                {
                    closedDayCancels.markWhenSent(directory);
                    System.out.println("order-gateway: day " + sessionName + " (journals " + directory + ") left " +
                        cancels + " orders open: their cancels go to the engine as the close's");
                }
            }
            catch (final IOException | RuntimeException ex)
            {
                // Its orders stay in the engine; the day is tried again at the next start.
                metrics.error(GatewayError.JOURNAL_FAILED, directory, ex);
            }
        }
    }

    /**
     * With daily sessions and a journal retention ({@link GatewayContext#journalRetentionDays()}), deletes the journals
     * of the days it lets go ({@link JournalStore#expiredDays}, listed on the caller's thread) on a thread of its own,
     * so that the agent does not wait for the deletions: at the start and when a day opens, unless the last such
     * thread is still deleting. Logs each day deleted, with its bytes, and each failure (the day is tried again at the
     * next day's opening or start).
     *
     * @param current the current day's journals.
     */
    void deleteExpiredDays(final JournalStore current)
    {
        if (!ctx.dailySessions() || 0 == ctx.journalRetentionDays() ||
            (null != retentionThread && retentionThread.isAlive()))
        {
            return;
        }
        final List<Path> expired;
        try
        {
            expired = current.expiredDays(ctx.journalRetentionDays());
        }
        catch (final IOException ex)
        {
            System.err.println("order-gateway: journal directory " + ctx.journalDir() + " not read for the days " +
                "past their retention: " + ex);
            return;
        }
        if (expired.isEmpty())
        {
            return;
        }
        retentionThread = Thread.ofPlatform().name("journal-retention").daemon().start(() ->
        {
            for (final Path day : expired)
            {
                try
                {
                    final long bytes = JournalStore.deleteDay(day);
                    System.out.println("order-gateway: journals of day " + JournalStore.decode(
                        day.getFileName().toString()) + " deleted (" + bytes + " bytes, " + day + "), past the " +
                        ctx.journalRetentionDays() + " days of " + GatewayContext.JOURNAL_RETENTION_DAYS_PROP_NAME);
                }
                catch (final IOException ex)
                {
                    System.err.println("order-gateway: journals of day " + day + " not deleted: " + ex);
                }
            }
        });
    }

    /**
     * @param sessionName      another day's session name.
     * @param firstSessionName the first day's.
     * @return true when the other day, with daily sessions and a close time, is a date before the first day: its close,
     * at the latest the midnight its next date starts at, has passed.
     */
    private boolean isClosedBefore(final String sessionName, final String firstSessionName)
    {
        if (!ctx.dailySessions() || GatewayContext.NO_CLOSE == ctx.closeTimeNs())
        {
            return false;
        }
        final LocalDate day = SessionNames.dateOf(sessionName);
        final LocalDate first = SessionNames.dateOf(firstSessionName);
        // a configured session name: a day of no date, whose close time is not known
        return null != day && null != first && day.isBefore(first);
    }

    /**
     * Ends a day whose close the gateway missed (stopped before it, or while the close waited for its cancels), as its
     * close would have: the End of Day journaled in each of its sessions that has not had it, their last message,
     * which a client finds in its replay should the day be opened again.
     */
    private void endDay(final SessionRegistry registry)
    {
        clock.update();
        registry.endDay();
        registry.flush();
    }

    private TradingDay open(final int index, final JournalStore journals) throws IOException
    {
        // The restored orders' cancels and the close read the clock: at the first day's opening it has not run yet.
        clock.update();
        journals.unmarkOrdersCanceled();
        final SessionIndexes sessionIndexes = new SessionIndexes(journals.maxSessionIndex());
        final OrderEntry orderEntry = newOrderEntry(sessionIndexes, journals.collarReferences(ctx.symbolDirectory()));
        final SessionRegistry registry = restoreSessions(journals, sessionIndexes, orderEntry);
        rejectOrdersLostWithTheirMediaDriver(journals, orderEntry, registry);
        orderEntry.keepCancelsOnDisconnectOfRestoredOrders();
        final MarketClose marketClose =
            new MarketClose(index * MidnightNanoClock.NANOS_PER_DAY, ctx.closeTimeNs(), orderEntry, registry);
        // A day opened at or past its close closes before any engine event is read, so that the events of the close's
        // cancels an earlier process sent, heard in the first duty cycle, are answered Canceled 'T' as its own are.
        clock.update();
        marketClose.doWork(clock.midnightNs());
        final EventPositions eventPositions = ctx.eventArchive().enabled() ?
            journals.eventPositions(ctx.symbolDirectory().shardCount()) : null;
        return new TradingDay(index, journals, eventPositions, sessionIndexes, orderEntry, registry, marketClose);
    }

    private OrderEntry newOrderEntry(final SessionIndexes sessionIndexes, final CollarReferences collarReferences)
    {
        return new OrderEntry(ctx.gatewayId(), ctx.maxOrderShares(), ctx.maxSessionTokens(), ctx.maxDayTokens(),
            ctx.symbolDirectory(), ctx.riskLimits(), collarReferences, engine, ouch, metrics, clock, sessionIndexes,
            mediaDriverStartMs);
    }

    /**
     * Rejects the day's rebuilt orders that an earlier gateway process sent through a media driver since restarted
     * ({@link OrderEntry#rejectOrdersLostWithTheirMediaDriver}), journals the answers and logs their count.
     */
    private void rejectOrdersLostWithTheirMediaDriver(
        final JournalStore journals, final OrderEntry orderEntry, final SessionRegistry registry)
    {
        if (0 == mediaDriverStartMs)
        {
            return;
        }
        clock.update();
        final int rejected = orderEntry.rejectOrdersLostWithTheirMediaDriver();
        if (rejected > 0)
        {
            registry.flush();
            System.out.println("order-gateway journal " + journals.directory() + ": " + rejected + " orders sent " +
                "through an earlier media driver and never answered rejected to their owners (OUCH Rejected 'H'): " +
                "the driver's restart ended their command streams");
        }
    }

    /** @return the day's sessions, each restored from its journal with its orders rebuilt ({@link OrderRebuild}). */
    private SessionRegistry restoreSessions(
        final JournalStore journals, final SessionIndexes sessionIndexes, final OrderEntry orderEntry)
        throws IOException
    {
        final SessionRegistry registry = new SessionRegistry(ctx.credentials(), journals.sessionName(),
            ctx.gatewayId(), ctx.symbolDirectory().shardCount(), ctx.maxSessions(), ctx.maxPendingLogins(),
            ctx.loginTimeoutMs() * 1_000_000L, ctx.endOfSessionLingerMs() * 1_000_000L, sendBuffers,
            ctx.socketSendBufferBytes(), new OrderEntryAdapter(orderEntry, metrics), ouch, journals, metrics, clock,
            sessionIndexes, eventCatchUp);
        registry.restoreSessions(new OrderRebuild(orderEntry, ctx.symbolDirectory().shardCount()));
        return registry;
    }
}
