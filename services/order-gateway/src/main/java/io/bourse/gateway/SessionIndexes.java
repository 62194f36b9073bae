package io.bourse.gateway;

/**
 * The session indexes of this gateway id for the trading day: the middle part of its clientOrderIds
 * ({@code gatewayId << 56 | sessionIndex << 32 | count}, {@link UserSession#nextClientOrderId()}), which must never
 * repeat within the day, or the engine's events for an order of an earlier session would reach the new one. Each
 * session takes a new index at its first login after the gateway starts: one past the largest any journal recorded
 * (of the day; at a gateway's start, of the other days too, for a day without a floor yet:
 * {@link JournalStore#continueSessionIndexesOfOtherDays()})
 * and past every index this gateway id's clientOrderIds carry in the engine events that no order here is tracked for.
 * Those are orders of an earlier gateway with this id whose journals are gone (a gateway started on an emptied journal
 * directory while the engine shards run), which the gateway hears when it catches the shards' event streams up from
 * the event archive, before any login ({@link SessionRegistry}); or of another gateway running with the same id, a
 * misconfiguration this cannot make safe. Used only by the gateway agent thread.
 */
final class SessionIndexes
{
    /** Largest session index: 24 bits. */
    static final int MAX_SESSION_INDEX = 0xFF_FFFF;

    private int next;

    /**
     * @param largestJournaled the largest session index any journal of the day recorded, or the previous trading day
     *                         of the process knew of ({@link #largestKnown()}); 0 if none.
     */
    SessionIndexes(final int largestJournaled)
    {
        next = largestJournaled + 1;
    }

    /**
     * An engine event for a clientOrderId of this gateway id that no order here is tracked for: its session index is
     * taken from now on.
     *
     * @param clientOrderId a clientOrderId with this gateway id in its top byte.
     * @return true when the index was past every index known before (the next session's index moved past it).
     */
    boolean onUntrackedOrder(final long clientOrderId)
    {
        final int sessionIndex = (int)(clientOrderId >>> 32) & MAX_SESSION_INDEX;
        if (sessionIndex < next)
        {
            return false;
        }
        next = sessionIndex + 1;
        return true;
    }

    /**
     * @return the largest session index taken or known from the engine events, 0 if none: where the next trading day's
     * indexes continue from ({@link TradingDays}), so that an order of this day still in the engine never shares its
     * clientOrderId with one of the next.
     */
    int largestKnown()
    {
        return next - 1;
    }

    /** @return true when every index up to {@value #MAX_SESSION_INDEX} is taken: no new session can log in today. */
    boolean isExhausted()
    {
        return next > MAX_SESSION_INDEX;
    }

    /**
     * @return the session index {@link #take()} gives next: one never used by this gateway id today, as far as the
     * journals and the engine events tell.
     * @throws IllegalStateException when {@link #isExhausted()}.
     */
    int next()
    {
        if (isExhausted())
        {
            throw new IllegalStateException("no session index left: all " + MAX_SESSION_INDEX + " are taken");
        }
        return next;
    }

    /**
     * @return {@link #next()}, taken: the next call gives a later one.
     * @throws IllegalStateException when {@link #isExhausted()}.
     */
    int take()
    {
        final int sessionIndex = next();
        next = sessionIndex + 1;
        return sessionIndex;
    }
}
