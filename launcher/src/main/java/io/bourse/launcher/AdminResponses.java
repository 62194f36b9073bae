package io.bourse.launcher;

import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.bourse.sbe.engine.AdminResponseCode;
import io.bourse.sbe.engine.AdminResponseDecoder;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;

/**
 * Waits on one matching-engine shard's event stream for its AdminResponse (engine-schema.xml, version 7) to one admin
 * command: the answer whose command template id and timestamp (ns since midnight, as sent) are the command's. Every
 * other event, and the answers to other senders' commands, are skipped. The subscription must be connected before the
 * command is sent, so that the answer cannot come before the stream is read.
 */
final class AdminResponses implements FragmentHandler
{
    private static final int FRAGMENT_LIMIT = 64;

    private final Subscription events;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final AdminResponseDecoder response = new AdminResponseDecoder();
    private int commandTemplateId;
    private long timestampNs;
    private AdminResponseCode code;

    /**
     * @param events the shard's event stream, connected.
     */
    AdminResponses(final Subscription events)
    {
        this.events = events;
    }

    /**
     * Polls the shard's events until the answer to the command comes or the deadline passes.
     *
     * @param commandTemplateId the admin command's template id.
     * @param timestampNs       the command's timestamp, as sent.
     * @param deadlineNs        {@link System#nanoTime()} at which to give up.
     * @param idle              between empty polls.
     * @return the shard's answer: OK or why it refused the command; null when none came by the deadline (an engine
     *         older than schema version 7 sends none).
     */
    AdminResponseCode await(
        final int commandTemplateId, final long timestampNs, final long deadlineNs, final IdleStrategy idle)
    {
        this.commandTemplateId = commandTemplateId;
        this.timestampNs = timestampNs;
        code = null;
        while (null == code && System.nanoTime() - deadlineNs < 0)
        {
            idle.idle(events.poll(this, FRAGMENT_LIMIT));
        }
        return code;
    }

    @Override
    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header frameHeader)
    {
        if (null != code || length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            return;
        }
        header.wrap(buffer, offset);
        if (MessageHeaderDecoder.SCHEMA_ID != header.schemaId() ||
            AdminResponseDecoder.TEMPLATE_ID != header.templateId() ||
            length < MessageHeaderDecoder.ENCODED_LENGTH + AdminResponseDecoder.BLOCK_LENGTH)
        {
            return;
        }
        response.wrap(buffer, offset + MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());
        if (commandTemplateId == response.commandTemplateId() && timestampNs == response.timestampNs())
        {
            code = response.code();
        }
    }
}
