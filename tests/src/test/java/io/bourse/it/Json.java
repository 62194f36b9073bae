package io.bourse.it;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON reader for the tests (RFC 8259): objects become {@link Map}s in document order, arrays {@link List}s, strings
 * {@link String}s, numbers {@link Double}s, {@code true}/{@code false} {@link Boolean}s and {@code null} null. Enough
 * for the Grafana dashboards and the answers of Prometheus's HTTP API, without a JSON library on the test class path.
 */
final class Json
{
    private final String text;
    private int position;

    private Json(final String text)
    {
        this.text = text;
    }

    /**
     * @param text one JSON value, optionally surrounded by white space.
     * @return the value.
     * @throws IllegalArgumentException when the text is not one JSON value, naming the offset.
     */
    static Object parse(final String text)
    {
        final Json json = new Json(text);
        final Object value = json.value();
        json.skipWhitespace();
        if (json.position != text.length())
        {
            throw json.error("end of input expected");
        }
        return value;
    }

    /**
     * @param value a parsed object.
     * @return the object as a map.
     * @throws IllegalArgumentException when it is not an object.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> object(final Object value)
    {
        if (!(value instanceof Map))
        {
            throw new IllegalArgumentException("JSON object expected: " + value);
        }
        return (Map<String, Object>)value;
    }

    /**
     * @param value a parsed array, or null for none.
     * @return the array as a list, empty for null.
     * @throws IllegalArgumentException when it is neither an array nor null.
     */
    @SuppressWarnings("unchecked")
    static List<Object> array(final Object value)
    {
        if (null == value)
        {
            return List.of();
        }
        if (!(value instanceof List))
        {
            throw new IllegalArgumentException("JSON array expected: " + value);
        }
        return (List<Object>)value;
    }

    private Object value()
    {
        skipWhitespace();
        if (position >= text.length())
        {
            throw error("value expected");
        }
        final char c = text.charAt(position);
        return switch (c)
        {
            case '{' -> objectValue();
            case '[' -> arrayValue();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> objectValue()
    {
        final Map<String, Object> members = new LinkedHashMap<>();
        position++;
        skipWhitespace();
        if (peek('}'))
        {
            position++;
            return members;
        }
        while (true)
        {
            skipWhitespace();
            if (!peek('"'))
            {
                throw error("member name expected");
            }
            final String name = string();
            skipWhitespace();
            expect(':');
            members.put(name, value());
            skipWhitespace();
            if (peek(','))
            {
                position++;
            }
            else
            {
                expect('}');
                return members;
            }
        }
    }

    private List<Object> arrayValue()
    {
        final List<Object> elements = new ArrayList<>();
        position++;
        skipWhitespace();
        if (peek(']'))
        {
            position++;
            return elements;
        }
        while (true)
        {
            elements.add(value());
            skipWhitespace();
            if (peek(','))
            {
                position++;
            }
            else
            {
                expect(']');
                return elements;
            }
        }
    }

    private String string()
    {
        position++;
        final StringBuilder builder = new StringBuilder();
        while (true)
        {
            if (position >= text.length())
            {
                throw error("unterminated string");
            }
            final char c = text.charAt(position++);
            if ('"' == c)
            {
                return builder.toString();
            }
            if ('\\' != c)
            {
                builder.append(c);
                continue;
            }
            if (position >= text.length())
            {
                throw error("unterminated escape");
            }
            final char escaped = text.charAt(position++);
            switch (escaped)
            {
                case '"', '\\', '/' -> builder.append(escaped);
                case 'b' -> builder.append('\b');
                case 'f' -> builder.append('\f');
                case 'n' -> builder.append('\n');
                case 'r' -> builder.append('\r');
                case 't' -> builder.append('\t');
                case 'u' ->
                {
                    if (position + 4 > text.length())
                    {
                        throw error("truncated \\u escape");
                    }
                    builder.append((char)Integer.parseInt(text.substring(position, position + 4), 16));
                    position += 4;
                }
                default -> throw error("bad escape \\" + escaped);
            }
        }
    }

    private Object literal(final String word, final Boolean value)
    {
        if (!text.startsWith(word, position))
        {
            throw error(word + " expected");
        }
        position += word.length();
        return value;
    }

    private Double number()
    {
        final int start = position;
        while (position < text.length() && "+-0123456789.eE".indexOf(text.charAt(position)) >= 0)
        {
            position++;
        }
        if (start == position)
        {
            throw error("value expected");
        }
        try
        {
            return Double.valueOf(text.substring(start, position));
        }
        catch (final NumberFormatException ex)
        {
            position = start;
            throw error("bad number");
        }
    }

    private void skipWhitespace()
    {
        while (position < text.length() && " \t\r\n".indexOf(text.charAt(position)) >= 0)
        {
            position++;
        }
    }

    private boolean peek(final char c)
    {
        return position < text.length() && text.charAt(position) == c;
    }

    private void expect(final char c)
    {
        if (!peek(c))
        {
            throw error("'" + c + "' expected");
        }
        position++;
    }

    private IllegalArgumentException error(final String what)
    {
        return new IllegalArgumentException(what + " at offset " + position);
    }
}
