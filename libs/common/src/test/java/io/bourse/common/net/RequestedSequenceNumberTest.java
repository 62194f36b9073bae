package io.bourse.common.net;

import com.paritytrading.nassau.soupbintcp.SoupBinTCP;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class RequestedSequenceNumberTest
{
    @Test
    void shouldReadTheDigitsRightJustifiedOrLeftJustified()
    {
        assertThat(RequestedSequenceNumber.parse(field("                   3"))).isEqualTo(3);
        assertThat(RequestedSequenceNumber.parse(field("3                   "))).isEqualTo(3);
        assertThat(RequestedSequenceNumber.parse(field("          0000000042"))).isEqualTo(42);
        assertThat(RequestedSequenceNumber.parse(field("                   0"))).isZero();
        assertThat(RequestedSequenceNumber.parse(field("9223372036854775807 "))).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void shouldTakeANumberPastALongAsPastAnySessionsNextMessage()
    {
        // 2^64 + 3: nassau wrapped it to 3.
        assertThat(RequestedSequenceNumber.parse(field("18446744073709551619"))).isEqualTo(Long.MAX_VALUE);
        assertThat(RequestedSequenceNumber.parse(field("99999999999999999999"))).isEqualTo(Long.MAX_VALUE);
        assertThat(RequestedSequenceNumber.parse(field(" 9223372036854775808"))).isEqualTo(Long.MAX_VALUE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "x3", "3x", "-3", "+3", "1 1", "0x10", "3\0"})
    void shouldFindAFieldThatIsNotANumberMalformed(final String text)
    {
        assertThat(RequestedSequenceNumber.parse(field(text))).isEqualTo(RequestedSequenceNumber.MALFORMED);
    }

    @Test
    void shouldReadTheFieldOfALoginRequestNassauRead()
    {
        final SoupBinTCP.LoginRequest request = new SoupBinTCP.LoginRequest();
        request.setRequestedSequenceNumber(1234);

        final RequestedSequenceNumber reader = new RequestedSequenceNumber();

        assertThat(reader.read(request)).isEqualTo(1234);
        assertThat(reader.text(request)).isEqualTo("'                1234'");
    }

    /** @return the 20-byte field: the text right-justified, padded with spaces. */
    private static byte[] field(final String text)
    {
        final byte[] field = new byte[20];
        Arrays.fill(field, (byte)' ');
        final byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(bytes, 0, field, field.length - bytes.length, bytes.length);
        return field;
    }
}
