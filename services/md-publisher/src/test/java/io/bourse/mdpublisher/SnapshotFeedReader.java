package io.bourse.mdpublisher;

import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.bourse.sbe.md.BookSnapshotDecoder;
import io.bourse.sbe.md.Feed;
import io.bourse.sbe.md.MessageHeaderDecoder;
import io.bourse.sbe.md.MessageHeaderEncoder;
import io.bourse.sbe.md.PriceLevelSnapshotDecoder;
import io.bourse.sbe.md.SnapshotCompleteDecoder;
import io.bourse.sbe.md.SnapshotRequestEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.bourse.common.Await.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reads one feed's stream of the md-publisher: the sequence number of its last increment, and its snapshot messages as
 * lines; the increments also go on to another handler when one is set.
 */
final class SnapshotFeedReader implements FragmentHandler
{
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final BookSnapshotDecoder bookSnapshot = new BookSnapshotDecoder();
    private final PriceLevelSnapshotDecoder levelSnapshot = new PriceLevelSnapshotDecoder();
    private final SnapshotCompleteDecoder snapshotComplete = new SnapshotCompleteDecoder();
    /** Sequence number of the last increment read. */
    long lastIncrement;
    /** The snapshot messages read, one line each, and every order or level one line. */
    final List<String> snapshot = new ArrayList<>();
    Subscription subscription;
    /** Takes the increments read too, when set. */
    FragmentHandler increments;

    /**
     * Sends a SnapshotRequest of this schema on the snapshot-request stream.
     *
     * @param requests  the md-publisher's snapshot-request stream.
     * @param buffer    where the request is written.
     * @param requestId the request id, which the snapshot carries.
     * @param feed      the feed whose snapshot is asked for.
     */
    static void request(final Publication requests, final MutableDirectBuffer buffer, final long requestId,
        final Feed feed)
    {
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + new SnapshotRequestEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .requestId(requestId)
            .feed(feed)
            .encodedLength();
        awaitTrue(() -> requests.offer(buffer, 0, length) > 0);
    }

    /** Reads until SnapshotComplete, then checks it came after that many snapshot messages. */
    void awaitSnapshot(final int messageCount)
    {
        awaitTrue(() ->
        {
            subscription.poll(this, 100);
            return !snapshot.isEmpty() && snapshot.getLast().startsWith("SnapshotComplete");
        });
        assertThat(snapshot.stream().filter((line) -> line.contains("Snapshot ")).count())
            .isEqualTo(messageCount);
    }

    @Override
    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header aeronHeader)
    {
        header.wrap(buffer, offset);
        switch (header.templateId())
        {
            case BookSnapshotDecoder.TEMPLATE_ID ->
            {
                bookSnapshot.wrapAndApplyHeader(buffer, offset, header);
                final String reason = new String(new byte[]{bookSnapshot.reason(0), bookSnapshot.reason(1),
                    bookSnapshot.reason(2), bookSnapshot.reason(3)}, StandardCharsets.US_ASCII);
                snapshot.add("BookSnapshot " + bookSnapshot.snapshotId() + " #" + bookSnapshot.messageIndex() +
                    " " + bookSnapshot.symbol().trim() + " after " + bookSnapshot.sequenceNumber() + " at " +
                    bookSnapshot.timestampNs() + ": " + (char)bookSnapshot.tradingStateRaw() + " '" + reason +
                    "' since " + bookSnapshot.tradingStateTimestampNs());
                for (final BookSnapshotDecoder.OrdersDecoder order : bookSnapshot.orders())
                {
                    snapshot.add("  " + order.orderId() + " " + (char)order.sideRaw() + " " + order.quantity() +
                        " @ " + order.price() + " t " + order.timestampNs() + " by '" + order.attribution() + "'");
                }
            }
            case PriceLevelSnapshotDecoder.TEMPLATE_ID ->
            {
                levelSnapshot.wrapAndApplyHeader(buffer, offset, header);
                snapshot.add("PriceLevelSnapshot " + levelSnapshot.snapshotId() + " " + levelSnapshot.feed() +
                    " #" + levelSnapshot.messageIndex() + " " + levelSnapshot.symbol().trim() + " after " +
                    levelSnapshot.sequenceNumber() + " at " + levelSnapshot.timestampNs());
                for (final PriceLevelSnapshotDecoder.LevelsDecoder level : levelSnapshot.levels())
                {
                    snapshot.add("  " + (char)level.sideRaw() + " " + level.quantity() + " @ " + level.price() +
                        " (" + level.orderCount() + " orders)");
                }
            }
            case SnapshotCompleteDecoder.TEMPLATE_ID ->
            {
                snapshotComplete.wrapAndApplyHeader(buffer, offset, header);
                snapshot.add("SnapshotComplete " + snapshotComplete.snapshotId() + " after " +
                    snapshotComplete.sequenceNumber() + ": " + snapshotComplete.messageCount() + " messages");
            }
            default ->
            {
                lastIncrement = buffer.getLong(offset + MessageHeaderDecoder.ENCODED_LENGTH, ByteOrder.LITTLE_ENDIAN);
                if (null != increments)
                {
                    increments.onFragment(buffer, offset, length, aeronHeader);
                }
            }
        }
    }
}
