package io.bourse.it;

import org.testcontainers.images.builder.ImageFromDockerfile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The image of a third-party decoder of {@link ThirdPartyDecodersIT}, built from its directory
 * {@code tests/src/test/docker/NAME} (a Dockerfile on Debian and the files it copies) and tagged
 * {@code bourse-it/NAME}; a cache hit when nothing changed.
 */
final class DecoderImage
{
    /** Base-image build argument of the Dockerfiles; taken from the environment when set (air-gapped hosts). */
    private static final String BASE_IMAGE_ARG = "BOURSE_DEBIAN_IMAGE";

    private DecoderImage()
    {
    }

    /**
     * @param name the decoder's directory under {@code tests/src/test/docker}, e.g. {@code tshark}.
     * @return its image, every file of the directory in the build context; add the files it takes from elsewhere.
     * @throws UncheckedIOException when the directory cannot be listed.
     */
    static ImageFromDockerfile of(final String name)
    {
        final ImageFromDockerfile image = new ImageFromDockerfile("bourse-it/" + name, false);
        try (Stream<Path> files = Files.list(BourseImage.repositoryRoot().resolve("tests/src/test/docker/" + name)))
        {
            files.forEach((file) -> image.withFileFromPath(file.getFileName().toString(), file));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final String baseImage = System.getenv(BASE_IMAGE_ARG);
        if (null != baseImage && !baseImage.isBlank())
        {
            image.withBuildArg(BASE_IMAGE_ARG, baseImage);
        }
        return image;
    }
}
