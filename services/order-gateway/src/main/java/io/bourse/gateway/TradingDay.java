package io.bourse.gateway;

/**
 * One trading day of the gateway, everything that lives for the day alone: the SoupBinTCP session (the journals'
 * {@link JournalStore#sessionName()}), its session journals, the users' sessions ({@link SessionRegistry}), their
 * orders and Order Tokens ({@link OrderEntry}), the session indexes of its clientOrderIds, and its close
 * ({@link MarketClose}).
 * The connections, the engine shards' streams, the clock and the metrics outlive it. Opened by {@link TradingDays};
 * used by the gateway agent's thread, except {@link MarketClose#state()} and {@link OrderEntry#openOrderCount()}.
 *
 * @param index          days since the gateway's first (0), the UTC date of its clock's start: its close is at
 *                       {@code index} days plus the close time on the clock ({@link DutyCycleClock#midnightNs()}).
 * @param journals       the day's session journals; closed with the day.
 * @param eventPositions the positions in the engine shards' event streams the day answered through, kept in its journal
 *                       directory ({@link JournalStore#eventPositions}); null without the event archive.
 * @param sessionIndexes the session indexes of the day's clientOrderIds.
 * @param orderEntry     the day's order logic.
 * @param registry       the day's sessions.
 * @param marketClose    closes the day.
 */
record TradingDay(
    int index,
    JournalStore journals,
    EventPositions eventPositions,
    SessionIndexes sessionIndexes,
    OrderEntry orderEntry,
    SessionRegistry registry,
    MarketClose marketClose)
{
    /** @return the day's SoupBinTCP session name. */
    String sessionName()
    {
        return journals.sessionName();
    }
}
