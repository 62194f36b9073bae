package io.bourse.common;

import io.bourse.sbe.engine.AdminResponseDecoder;
import io.bourse.sbe.engine.CommandStreamJoinedDecoder;
import io.bourse.sbe.engine.SequencedCommandDecoder;

/**
 * What the messages of an engine shard's event stream (schemas/engine-schema.xml) are to its readers: events, which
 * carry the shard's sequence number as their first field, and the messages that carry none and are no market or order
 * event: SequencedCommand (the shard's input log), AdminResponse (its answer to an operator) and CommandStreamJoined
 * (where a run joined a gateway's command publication). The engine numbers the first, the gateways and md-publishers
 * count them as events; the others are skipped by every reader but the one each is for.
 */
public final class EngineEventTemplates
{
    private EngineEventTemplates()
    {
    }

    /**
     * @param templateId a message template id of the engine schema.
     * @return true for an event, numbered with the shard sequence number; false for a SequencedCommand, an
     *         AdminResponse or a CommandStreamJoined.
     */
    public static boolean isNumbered(final int templateId)
    {
        return SequencedCommandDecoder.TEMPLATE_ID != templateId && AdminResponseDecoder.TEMPLATE_ID != templateId &&
            CommandStreamJoinedDecoder.TEMPLATE_ID != templateId;
    }
}
