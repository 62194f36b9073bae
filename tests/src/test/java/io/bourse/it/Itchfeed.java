package io.bourse.it;

import org.testcontainers.containers.Container;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.images.builder.Transferable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * itchfeed (PyPI, MIT; https://github.com/bbalouki/itch), an ITCH 5.0 parser for Python written by another author
 * than Bourse's and juncture's, in a container built from {@code tests/src/test/docker/itchfeed} with the wheel that
 * {@code tests/pom.xml} downloads: it decodes ITCH 5.0 messages with its own layouts, one struct format per message
 * type, and refuses a message whose length is not its layout's ({@code itch50_fields.py}).
 */
final class Itchfeed implements AutoCloseable
{
    /** The wheel the build downloads (tests/pom.xml, download-maven-plugin). */
    private static final Path WHEEL = BourseImage.repositoryRoot().resolve("tests/target/itchfeed/itchfeed.whl");
    private static final String INPUT_FILE = "/tmp/itch50.hex";

    /**
     * An ITCH 5.0 message as itchfeed reads it.
     *
     * @param hex     the message, in hex.
     * @param type    its Message Type; 0 when refused.
     * @param fields  each field itchfeed reads, by its name (e.g. {@code order_reference_number}, {@code timestamp}):
     *                an integer in decimal, an Alpha field as {@code x} and its bytes in hex; none when refused.
     * @param refusal why itchfeed refuses it (an unknown type, a length other than its layout's); null when read.
     */
    record Message(String hex, char type, Map<String, String> fields, String refusal)
    {
    }

    private final GenericContainer<?> container;

    private Itchfeed(final GenericContainer<?> container)
    {
        this.container = container;
    }

    /**
     * Builds the image (a cache hit when nothing changed) and starts its container, idle.
     *
     * @return the running container.
     * @throws IllegalStateException when the build has not downloaded the wheel (a test run outside Maven).
     */
    static Itchfeed start()
    {
        if (!Files.isRegularFile(WHEEL))
        {
            throw new IllegalStateException(WHEEL + " missing: the tests module's Maven build downloads it " +
                "(generate-test-resources)");
        }
        final GenericContainer<?> container =
            new GenericContainer<>(DecoderImage.of("itchfeed").withFileFromPath("itchfeed.whl", WHEEL));
        container.start();
        return new Itchfeed(container);
    }

    /**
     * @param messages ITCH 5.0 messages, each in hex.
     * @return itchfeed's reading of each, in order.
     * @throws IOException    when the container cannot be reached.
     * @throws AssertionError when the decoding script fails or answers for other messages than those given.
     */
    List<Message> decode(final List<String> messages) throws IOException, InterruptedException
    {
        container.copyFileToContainer(
            Transferable.of(String.join("\n", messages).getBytes(StandardCharsets.US_ASCII)), INPUT_FILE);
        final Container.ExecResult result =
            container.execInContainer("sh", "-c", "python3 /opt/itchfeed/itch50_fields.py < " + INPUT_FILE);
        if (0 != result.getExitCode())
        {
            throw new AssertionError("itch50_fields.py exited " + result.getExitCode() + ": " + result.getStderr());
        }
        final List<Message> decoded = new ArrayList<>();
        for (final String line : result.getStdout().split("\n"))
        {
            if (!line.isEmpty())
            {
                decoded.add(message(line.split("\t")));
            }
        }
        final List<String> answered = decoded.stream().map(Message::hex).toList();
        if (!answered.equals(messages))
        {
            int i = 0;
            while (i < Math.min(answered.size(), messages.size()) && answered.get(i).equals(messages.get(i)))
            {
                i++;
            }
            throw new AssertionError("itchfeed answered " + answered.size() + " messages for " + messages.size() +
                ", the first other than given at " + i + ": " + result.getStdout());
        }
        return decoded;
    }

    private static Message message(final String[] columns)
    {
        if ("ERROR".equals(columns[1]))
        {
            return new Message(columns[0], (char)0, Map.of(), columns[2]);
        }
        final Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 2; i < columns.length; i++)
        {
            final int equals = columns[i].indexOf('=');
            fields.put(columns[i].substring(0, equals), columns[i].substring(equals + 1));
        }
        return new Message(columns[0], columns[1].charAt(0), fields, null);
    }

    /** Stops the container. */
    @Override
    public void close()
    {
        container.stop();
    }
}
