package io.bourse.launcher;

import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.bourse.common.config.Symbols;
import io.bourse.sbe.engine.AdminResponseCode;
import io.bourse.sbe.engine.AdminResponseDecoder;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import org.agrona.concurrent.IdleStrategy;

import java.util.Arrays;

/**
 * Waits on the event streams of the matching-engine shards an admin command went to for each shard's AdminResponse
 * (engine-schema.xml, version 7): the answer whose command template id, timestamp (ns since midnight, as sent) and
 * symbol are the command's. Every other event, and the answers to other senders' commands, are skipped. The
 * subscriptions must be connected before the command is sent, so that no answer can come before its stream is read;
 * they are read round robin, so that none is left unread long enough to hold its shard back.
 */
final class AdminResponses
{
    /** {@link #code(int)} of a shard that has not answered. */
    static final short NO_ANSWER = -1;
    private static final int FRAGMENT_LIMIT = 64;

    private final Subscription[] events;
    private final short[] codes;
    private final FragmentHandler[] handlers;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final AdminResponseDecoder response = new AdminResponseDecoder();
    private int commandTemplateId;
    private long timestampNs = Long.MIN_VALUE;
    private long symbol;

    /**
     * @param events the event streams of the shards, in the order {@link #code(int)} takes them.
     */
    AdminResponses(final Subscription[] events)
    {
        this.events = events;
        this.codes = new short[events.length];
        this.handlers = new FragmentHandler[events.length];
        Arrays.fill(codes, NO_ANSWER);
        for (int i = 0; i < events.length; i++)
        {
            final int shard = i;
            handlers[i] = (buffer, offset, length, frameHeader) ->
            {
                if (NO_ANSWER != codes[shard] || length < MessageHeaderDecoder.ENCODED_LENGTH)
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
                response.wrap(
                    buffer, offset + MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());
                if (commandTemplateId == response.commandTemplateId() && timestampNs == response.timestampNs() &&
                    symbol == Symbols.pack(buffer, offset + MessageHeaderDecoder.ENCODED_LENGTH +
                    AdminResponseDecoder.symbolEncodingOffset()))
                {
                    codes[shard] = response.codeRaw();
                }
            };
        }
    }

    /**
     * Reads every stream once, skipping what is there: to be called while waiting to send, so that the streams are
     * not left unread.
     *
     * @return fragments read.
     */
    int poll()
    {
        int fragments = 0;
        for (int i = 0; i < events.length; i++)
        {
            fragments += events[i].poll(handlers[i], FRAGMENT_LIMIT);
        }
        return fragments;
    }

    /**
     * Reads the streams until every shard has answered the command or the deadline has passed, then once more.
     *
     * @param commandTemplateId the admin command's template id.
     * @param timestampNs       the command's timestamp, as sent.
     * @param symbol            the command's packed symbol, {@code Symbols.pack("")} (spaces) for one without.
     * @param deadlineNs        {@link System#nanoTime()} at which to give up.
     * @param idle              between empty rounds.
     */
    void await(
        final int commandTemplateId, final long timestampNs, final long symbol, final long deadlineNs,
        final IdleStrategy idle)
    {
        this.commandTemplateId = commandTemplateId;
        this.timestampNs = timestampNs;
        this.symbol = symbol;
        while (!allAnswered() && System.nanoTime() - deadlineNs < 0)
        {
            idle.idle(poll());
        }
        poll();
    }

    /**
     * @param index the shard's place in the streams given.
     * @return its answer's raw AdminResponseCode, {@link #NO_ANSWER} when none came (an engine older than schema
     *         version 7 sends none).
     */
    short code(final int index)
    {
        return codes[index];
    }

    /**
     * @param code a raw AdminResponseCode.
     * @return its name, e.g. {@code CROSS_NOT_LOCKED}; {@code code N} for one a newer engine may send.
     */
    static String name(final short code)
    {
        for (final AdminResponseCode known : AdminResponseCode.values())
        {
            if (AdminResponseCode.NULL_VAL != known && known.value() == code)
            {
                return known.name();
            }
        }
        return "code " + code;
    }

    private boolean allAnswered()
    {
        for (final short code : codes)
        {
            if (NO_ANSWER == code)
            {
                return false;
            }
        }
        return true;
    }
}
