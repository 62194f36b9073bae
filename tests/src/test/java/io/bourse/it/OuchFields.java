package io.bourse.it;

import io.bourse.common.config.Symbols;
import io.bourse.ouch.AiqCanceled;
import io.bourse.ouch.BrokenTrade;
import io.bourse.ouch.CancelOrder;
import io.bourse.ouch.CancelPending;
import io.bourse.ouch.CancelReject;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.ModifyOrder;
import io.bourse.ouch.OrderAccepted;
import io.bourse.ouch.OrderCanceled;
import io.bourse.ouch.OrderExecuted;
import io.bourse.ouch.OrderModified;
import io.bourse.ouch.OrderPriorityUpdate;
import io.bourse.ouch.OrderRejected;
import io.bourse.ouch.OrderReplaced;
import io.bourse.ouch.OuchFlyweight;
import io.bourse.ouch.ReplaceOrder;
import io.bourse.ouch.SystemEvent;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Bourse's reading of an OUCH 4.2 message, field by field: every field accessor of its {@code io.bourse.ouch}
 * flyweight (the gateway's decoder and encoder), under the name Wireshark's OUCH dissector gives the field and in the
 * form {@code tshark} prints it, so that the two readings can be compared ({@link Tshark#layers}).
 */
final class OuchFields
{
    /** The inbound flyweights, by message type. */
    private static final Map<Character, Supplier<OuchFlyweight<?>>> INBOUND = Map.of(
        'O', EnterOrder::new, 'U', ReplaceOrder::new, 'X', CancelOrder::new, 'M', ModifyOrder::new);
    /** The outbound flyweights, by message type. */
    private static final Map<Character, Supplier<OuchFlyweight<?>>> OUTBOUND = Map.ofEntries(
        Map.entry('S', SystemEvent::new), Map.entry('A', OrderAccepted::new), Map.entry('U', OrderReplaced::new),
        Map.entry('C', OrderCanceled::new), Map.entry('D', AiqCanceled::new), Map.entry('E', OrderExecuted::new),
        Map.entry('B', BrokenTrade::new), Map.entry('J', OrderRejected::new), Map.entry('P', CancelPending::new),
        Map.entry('I', CancelReject::new), Map.entry('T', OrderPriorityUpdate::new),
        Map.entry('M', OrderModified::new));
    /** Wireshark's names of the fields whose accessors are not named like them. */
    private static final Map<String, String> WIRESHARK_NAMES = Map.of(
        "orderTokenAsString", "order_token",
        "existingOrderTokenAsString", "existing_order_token",
        "replacementOrderTokenAsString", "replacement_order_token",
        "previousOrderTokenAsString", "previous_order_token",
        "firmAsString", "firm",
        "timeInForce", "tif",
        "intermarketSweepEligibility", "iso_eligible",
        "minimumQuantity", "min_quantity");
    /** Wireshark's name of a Reason, by message type: Canceled and AIQ Canceled, Rejected, Broken Trade. */
    private static final Map<Character, String> REASONS = Map.of(
        'C', "cancel_reason", 'D', "cancel_reason", 'J', "reject_reason", 'B', "broken_trade_reason");

    private OuchFields()
    {
    }

    /**
     * @param message one OUCH 4.2 message.
     * @param inbound true for a message to the gateway, false for one from it.
     * @return its fields, by Wireshark's name without {@code ouch.} ({@code packet_type} the Message Type), each as
     *         tshark prints it: a character in quotes ({@code 'B'}; a quote or backslash escaped, one outside printable
     *         ASCII as {@code '\xNN'}), an integer in decimal, an Alpha field's text without its trailing spaces, the
     *         Timestamp as {@code H:MM:SS.nnnnnnnnn} (hours without a leading zero).
     * @throws IllegalArgumentException when Bourse has no flyweight of its type in that direction.
     */
    static Map<String, String> read(final byte[] message, final boolean inbound)
    {
        final char type = (char)message[0];
        final Supplier<OuchFlyweight<?>> flyweight = (inbound ? INBOUND : OUTBOUND).get(type);
        if (null == flyweight)
        {
            throw new IllegalArgumentException("no OUCH 4.2 " + (inbound ? "inbound" : "outbound") + " '" + type + "'");
        }
        final OuchFlyweight<?> decoder = flyweight.get().wrap(new UnsafeBuffer(message), 0);
        final Map<String, String> fields = new TreeMap<>();
        fields.put("packet_type", quoted(message[0]));
        for (final Method accessor : decoder.getClass().getDeclaredMethods())
        {
            final int modifiers = accessor.getModifiers();
            final boolean isField = Modifier.isPublic(modifiers) && !Modifier.isStatic(modifiers) &&
                !accessor.isSynthetic() && 0 == accessor.getParameterCount() &&
                !"firm".equals(accessor.getName()); // firmAsString() reads the same bytes as text
            if (isField && null != fields.put(name(type, accessor.getName()),
                value(accessor.getName(), invoke(accessor, decoder))))
            {
                throw new IllegalStateException(accessor + ": a second accessor of " + name(type, accessor.getName()));
            }
        }
        return fields;
    }

    private static String name(final char type, final String accessor)
    {
        if ("reason".equals(accessor))
        {
            return REASONS.get(type);
        }
        return WIRESHARK_NAMES.getOrDefault(accessor, accessor.replaceAll("([A-Z])", "_$1").toLowerCase());
    }

    private static String value(final String accessor, final Object value)
    {
        return switch (value)
        {
            case Byte character -> quoted(character);
            case Long number when "stock".equals(accessor) -> Symbols.toString(number);
            case Long number when "timestamp".equals(accessor) -> timeOfDay(number);
            case Long number -> Long.toUnsignedString(number);
            default -> String.valueOf(value).stripTrailing();
        };
    }

    private static String quoted(final byte character)
    {
        if ('\'' == character || '\\' == character)
        {
            return "'\\" + (char)character + "'";
        }
        return character >= ' ' && character < 0x7F ?
            "'" + (char)character + "'" : String.format("'\\x%02x'", character & 0xFF);
    }

    /**
     * @return nanoseconds since midnight, unsigned, as Wireshark's OUCH dissector shows a Timestamp:
     *         {@code H:MM:SS.nnnnnnnnn}, the hours without a leading zero (and past 23 for a value past a day).
     */
    private static String timeOfDay(final long nanos)
    {
        final long seconds = Long.divideUnsigned(nanos, 1_000_000_000L) & 0xFFFF_FFFFL;
        return String.format("%d:%02d:%02d.%09d", seconds / 3600, seconds / 60 % 60, seconds % 60,
            Long.remainderUnsigned(nanos, 1_000_000_000L));
    }

    private static Object invoke(final Method accessor, final Object decoder)
    {
        try
        {
            return accessor.invoke(decoder);
        }
        catch (final IllegalAccessException | InvocationTargetException ex)
        {
            throw new IllegalStateException(accessor.toString(), ex);
        }
    }
}
