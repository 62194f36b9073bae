package io.bourse.it;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50Listener;
import com.paritytrading.juncture.nasdaq.itch50.ITCH50Parser;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * juncture's reading of an ITCH 5.0 message, field by field: the public fields of the message object juncture-nasdaq's
 * {@link ITCH50Parser} gives its listener, under the names itchfeed gives them ({@link #name}), so that the two
 * decoders' readings can be compared ({@link Itchfeed}).
 */
final class JunctureFields
{
    /** juncture's names (lower case) that itchfeed spells otherwise (lower case, underscores dropped). */
    private static final Map<String, String> ITCHFEED_NAMES = Map.of(
        "canceledshares", "cancelledshares", // Order Cancel 'X'
        "originalorderreferencenumber", "orderreferencenumber", // Order Replace 'U'
        "luldreferencepricetier", "luldref", // Stock Directory 'R'
        "pricevariationindicator", "variationindicator", // NOII 'I'
        "locatecode", "stocklocate"); // Reg SHO Restriction 'Y'
    private static final String TIMESTAMP_HIGH = "timestamphigh";
    private static final String TIMESTAMP_LOW = "timestamplow";

    /**
     * A field as juncture reads it.
     *
     * @param value the value; an Alpha field's bytes, big-endian.
     * @param bytes the width of juncture's Java field, in bytes (a Timestamp's 6).
     */
    record Value(long value, int bytes)
    {
        /**
         * @param itchfeedValue the same field as itchfeed prints it: an Alpha field as {@code x} and its bytes in hex,
         *                      else an integer in decimal.
         * @return this value in the same form: its {@link #bytes} in hex after {@code x}, or in unsigned decimal.
         */
        String like(final String itchfeedValue)
        {
            if (itchfeedValue.startsWith("x"))
            {
                return "x" + HexFormat.of().toHexDigits(value).substring(16 - 2 * bytes);
            }
            return Long.toUnsignedString(value);
        }
    }

    private JunctureFields()
    {
    }

    /**
     * @param message one ITCH 5.0 message.
     * @return juncture's reading of it, by {@link #name}: the Timestamp as one field, its two parts joined.
     * @throws IOException                        when juncture's parser refuses it (an unknown type).
     * @throws java.nio.BufferUnderflowException when it is shorter than juncture's layout of its type.
     */
    static Map<String, Value> read(final byte[] message) throws IOException
    {
        final Object[] read = new Object[1];
        final ITCH50Listener listener = (ITCH50Listener)Proxy.newProxyInstance(ITCH50Listener.class.getClassLoader(),
            new Class<?>[] {ITCH50Listener.class}, (proxy, method, args) ->
            {
                read[0] = args[0]; // each method's one argument: the message
                return null;
            });
        new ITCH50Parser(listener).message(ByteBuffer.wrap(message));
        final Map<String, Value> fields = new LinkedHashMap<>();
        try
        {
            for (final Field field : read[0].getClass().getFields())
            {
                if (!Modifier.isStatic(field.getModifiers()))
                {
                    final Object of = read[0];
                    final Value value = switch (field.getType().getName())
                    {
                        case "byte" -> new Value(field.getByte(of) & 0xFFL, 1);
                        case "short" -> new Value(field.getShort(of) & 0xFFFFL, 2);
                        case "int" -> new Value(field.getInt(of) & 0xFFFF_FFFFL, 4);
                        case "long" -> new Value(field.getLong(of), 8);
                        default -> throw new IllegalStateException("juncture's " + field + ": not an integer");
                    };
                    final String name = field.getName().toLowerCase(Locale.ROOT);
                    fields.put(ITCHFEED_NAMES.getOrDefault(name, name), value);
                }
            }
        }
        catch (final IllegalAccessException ex)
        {
            throw new IllegalStateException(ex);
        }
        final Value high = fields.remove(TIMESTAMP_HIGH);
        final Value low = fields.remove(TIMESTAMP_LOW);
        fields.put("timestamp", new Value(high.value() << 32 | low.value(), 6));
        return fields;
    }

    /**
     * @param itchfeedName a field's name as itchfeed gives it, e.g. {@code order_reference_number}.
     * @return the name this class uses for it: lower case, underscores dropped ({@code orderreferencenumber}).
     */
    static String name(final String itchfeedName)
    {
        return itchfeedName.toLowerCase(Locale.ROOT).replace("_", "");
    }
}
