package io.bourse.mdpublisher;

import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.OrderAddedDecoder;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.List;

/** Test handler of engine events: takes the order id of each Order Added, in the order read; ignores the others. */
final class OrderAddedIds implements FragmentHandler
{
    /** The order ids taken. */
    final List<Long> taken = new ArrayList<>();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final OrderAddedDecoder orderAdded = new OrderAddedDecoder();

    @Override
    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header frameHeader)
    {
        header.wrap(buffer, offset);
        if (OrderAddedDecoder.TEMPLATE_ID == header.templateId())
        {
            orderAdded.wrap(buffer, offset + MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(),
                header.version());
            taken.add(orderAdded.orderId());
        }
    }

    /**
     * @param first the first order id.
     * @param last  the last order id, inclusive.
     * @return the order ids from first to last, in order.
     */
    static List<Long> orderIds(final long first, final long last)
    {
        final List<Long> orderIds = new ArrayList<>();
        for (long orderId = first; orderId <= last; orderId++)
        {
            orderIds.add(orderId);
        }
        return orderIds;
    }
}
