package io.bourse.gateway;

import io.bourse.ouch.Ouch42;

import java.nio.ByteOrder;

/**
 * Layouts of the gateway-private records of a session journal ({@link SessionJournal#commitPrivate}): what the gateway
 * needs, beyond the OUCH 4.2 messages it sent, to rebuild the session's orders after a restart ({@link OrderRebuild}).
 * OUCH names orders by token only, so the records tie each token to the engine clientOrderId the order was sent with,
 * carry the entered fields of an order not answered yet, mark the outcomes no OUCH message names unambiguously, and
 * tell which engine events the messages answer. Never sent to a client. Written by {@link OrderRecordProxy} and, for
 * Event Sequences, {@link UserSession}; integers little-endian, as the journal's framing.
 * <pre>
 * Order Sent ('O', an Enter Order handed to the engine) and Replacement Sent ('U', a Replace Order handed over):
 * +--------+--------+-----------------------------------------------------------+
 * | Offset | Length | Field                                                     |
 * +--------+--------+-----------------------------------------------------------+
 * |      0 |      1 | Record Type 'O' or 'U'                                    |
 * |      1 |      1 | Buy/Sell Indicator (OUCH 4.2)                             |
 * |      2 |      1 | Display                                                   |
 * |      3 |      1 | Capacity                                                  |
 * |      4 |      1 | Intermarket Sweep Eligibility                             |
 * |      5 |      1 | Cross Type                                                |
 * |      6 |      2 | Shard Id (the engine shard the command went to)           |
 * |      8 |      8 | ClientOrderId (the engine's id of the order)              |
 * |     16 |      8 | Stock (packed symbol)                                     |
 * |     24 |      4 | Shares (as sent)                                          |
 * |     28 |      4 | Price (1/10000 dollars, as sent)                          |
 * |     32 |      4 | Time in Force                                             |
 * |     36 |      4 | Minimum Quantity                                          |
 * |     40 |      4 | Firm (4 ASCII bytes as a big-endian int)                  |
 * |     44 |     14 | Order Token (for 'U', the replacement's)                  |
 * |     58 |     14 | Previous Order Token ('U': the replaced order's; else     |
 * |        |        | spaces)                                                   |
 * +--------+--------+-----------------------------------------------------------+
 * Total: 72 bytes.
 *
 * Order Rejected ('J', the engine refused an order or replacement the gateway tracked, or the gateway rejected one lost
 * with its media driver):
 * +--------+--------+-----------------------------------------------------------+
 * |      0 |      1 | Record Type 'J'                                           |
 * |      1 |      7 | Reserved (0)                                              |
 * |      8 |      8 | ClientOrderId                                             |
 * +--------+--------+-----------------------------------------------------------+
 * Total: 16 bytes.
 *
 * Media Driver ('D', before the first Order Sent or Replacement Sent of each gateway process: the Aeron media driver
 * the commands that follow went through):
 * +--------+--------+-----------------------------------------------------------+
 * |      0 |      1 | Record Type 'D'                                           |
 * |      1 |      7 | Reserved (0)                                              |
 * |      8 |      8 | Driver Start (the media driver's start time, ms since the |
 * |        |        | epoch, from its CnC file: one per driver)                 |
 * +--------+--------+-----------------------------------------------------------+
 * Total: 16 bytes.
 *
 * Token Used ('T', a Replace Order of 0 shares sent as a cancel used its replacement token):
 * +--------+--------+-----------------------------------------------------------+
 * |      0 |      1 | Record Type 'T'                                           |
 * |      1 |     14 | Order Token                                               |
 * +--------+--------+-----------------------------------------------------------+
 * Total: 15 bytes.
 *
 * Event Sequences ('S', after the messages of a duty cycle that answered engine events):
 * +--------+--------+-----------------------------------------------------------+
 * |      0 |      1 | Record Type 'S'                                           |
 * |      1 |      1 | Reserved (0)                                              |
 * |      2 |      2 | Shard Count n                                             |
 * |      4 |      4 | Reserved (0)                                              |
 * |      8 |   16 n | for each shard k from 0, 16 bytes:                        |
 * |        |        |   +0 (8) the sequence number of the last event of shard k |
 * |        |        |          the session's messages answer, 0 if none         |
 * |        |        |   +8 (4) the Aeron session id of the shard's event stream |
 * |        |        |          it came on (a new engine run, a new stream)      |
 * |        |        |  +12 (4) reserved (0)                                     |
 * +--------+--------+-----------------------------------------------------------+
 * Total: 8 + 16 n bytes.
 * </pre>
 * The OUCH Rejected for an order the engine refused and the one for a request refused at once (e.g. the rate limit)
 * look alike; 'J' tells them apart. Every other token a session used is in an OUCH message it was sent. Event
 * Sequences let a restarted gateway ignore the events it hears again (an Aeron IPC subscription can join a stream
 * before the position the previous gateway had read to) instead of answering them twice, and only those: events of a
 * restarted engine come on a new stream and are new whatever their sequence numbers. Media Driver tells a restarted
 * gateway which of its orders still unanswered went through a media driver that is gone, and with it the command
 * stream: no engine run will answer them (a journal written before stop 70 has none: its orders are left to their
 * answer, as before).
 */
final class OrderRecords
{
    /** Byte order of the integers. */
    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    /** Record Type of Order Sent. */
    static final byte ORDER_SENT = 'O';
    /** Record Type of Replacement Sent. */
    static final byte REPLACEMENT_SENT = 'U';
    /** Record Type of Order Rejected. */
    static final byte ORDER_REJECTED = 'J';
    /** Record Type of Token Used. */
    static final byte TOKEN_USED = 'T';
    /** Record Type of Media Driver. */
    static final byte MEDIA_DRIVER = 'D';

    /** Offset of Record Type in every record. */
    static final int RECORD_TYPE_OFFSET = 0;

    /** Length of Order Sent and Replacement Sent. */
    static final int ORDER_LENGTH = 72;
    /** Offset of Buy/Sell Indicator. */
    static final int SIDE_OFFSET = 1;
    /** Offset of Display. */
    static final int DISPLAY_OFFSET = 2;
    /** Offset of Capacity. */
    static final int CAPACITY_OFFSET = 3;
    /** Offset of Intermarket Sweep Eligibility. */
    static final int INTERMARKET_SWEEP_ELIGIBILITY_OFFSET = 4;
    /** Offset of Cross Type. */
    static final int CROSS_TYPE_OFFSET = 5;
    /** Offset of Shard Id. */
    static final int SHARD_ID_OFFSET = 6;
    /** Offset of ClientOrderId in Order Sent, Replacement Sent and Order Rejected. */
    static final int CLIENT_ORDER_ID_OFFSET = 8;
    /** Offset of Stock. */
    static final int STOCK_OFFSET = 16;
    /** Offset of Shares. */
    static final int SHARES_OFFSET = 24;
    /** Offset of Price. */
    static final int PRICE_OFFSET = 28;
    /** Offset of Time in Force. */
    static final int TIME_IN_FORCE_OFFSET = 32;
    /** Offset of Minimum Quantity. */
    static final int MINIMUM_QUANTITY_OFFSET = 36;
    /** Offset of Firm. */
    static final int FIRM_OFFSET = 40;
    /** Offset of Order Token. */
    static final int ORDER_TOKEN_OFFSET = 44;
    /** Offset of Previous Order Token. */
    static final int PREVIOUS_ORDER_TOKEN_OFFSET = ORDER_TOKEN_OFFSET + Ouch42.TOKEN_LENGTH;

    /** Length of Order Rejected. */
    static final int ORDER_REJECTED_LENGTH = 16;

    /** Length of Media Driver. */
    static final int MEDIA_DRIVER_LENGTH = 16;
    /** Offset of Driver Start in Media Driver. */
    static final int DRIVER_START_OFFSET = 8;

    /** Length of Token Used. */
    static final int TOKEN_USED_LENGTH = 1 + Ouch42.TOKEN_LENGTH;
    /** Offset of Order Token in Token Used. */
    static final int USED_TOKEN_OFFSET = 1;

    /** Record Type of Event Sequences. */
    static final byte EVENT_SEQUENCES = 'S';
    /** Offset of Shard Count in Event Sequences. */
    static final int SHARD_COUNT_OFFSET = 2;
    /** Offset of the first shard's entry in Event Sequences. */
    static final int SEQUENCES_OFFSET = 8;
    /** Length of one shard's entry in Event Sequences: sequence number, engine stream, 4 bytes reserved (zero). */
    static final int SEQUENCE_ENTRY_LENGTH = 16;
    /** Offset of the last answered event's shard sequence number (integer 8) in a shard's entry. */
    static final int SEQUENCE_NUMBER_OFFSET = 0;
    /** Offset of the Aeron session id of the engine stream it came on (integer 4) in a shard's entry. */
    static final int ENGINE_STREAM_OFFSET = 8;
    /** Most shards an Event Sequences record holds within a journal record's largest length. */
    static final int MAX_SEQUENCE_SHARDS =
        (SessionJournal.MAX_MESSAGE_LENGTH - SEQUENCES_OFFSET) / SEQUENCE_ENTRY_LENGTH;

    /** Largest Shard Id the record holds. */
    static final int MAX_SHARD_ID = 0xFFFF;
    /** Mask of the unsigned 32-bit fields. */
    static final long UINT32_MASK = 0xFFFF_FFFFL;

    private OrderRecords()
    {
    }

    /**
     * @param shardCount shards of the gateway.
     * @return length of an Event Sequences record for them.
     */
    static int eventSequencesLength(final int shardCount)
    {
        return SEQUENCES_OFFSET + shardCount * SEQUENCE_ENTRY_LENGTH;
    }
}
