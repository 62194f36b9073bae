package io.bourse.mdpublisher;

import io.aeron.Publication;
import io.bourse.sbe.md.Feed;

/**
 * One market-data feed (schemas/market-data-schema.xml, {@link Feed}): the publication of its stream and its sequence
 * numbers, one per increment from 1. Each feed numbers its own increments, so a subscriber of one feed sees a gap in
 * exactly that feed; the snapshots of a feed carry its last sequence number. Not thread safe: the publisher thread
 * owns it.
 */
final class FeedPublication
{
    /** The four feeds, each {@link Feed#ordinal()} from 0 to 3, to index per-feed arrays by. */
    static final Feed[] FEEDS = {Feed.ORDERS, Feed.DEPTH, Feed.BBO, Feed.TRADES};

    final Feed feed;
    final Publication publication;
    private long nextSequenceNumber = 1;

    /**
     * @param feed        which feed.
     * @param publication the feed's stream.
     */
    FeedPublication(final Feed feed, final Publication publication)
    {
        this.feed = feed;
        this.publication = publication;
    }

    /** @return the sequence number of the next increment, taken: the following call returns the one after. */
    long takeSequenceNumber()
    {
        return nextSequenceNumber++;
    }

    /** @return the sequence number of the feed's last increment published (offered), 0 before the first. */
    long lastSequenceNumber()
    {
        return nextSequenceNumber - 1;
    }
}
