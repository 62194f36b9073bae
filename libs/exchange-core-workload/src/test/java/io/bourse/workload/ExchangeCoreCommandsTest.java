package io.bourse.workload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static io.bourse.workload.ExchangeCoreCommands.CANCEL;
import static io.bourse.workload.ExchangeCoreCommands.MOVE;
import static io.bourse.workload.ExchangeCoreCommands.PLACE;
import static io.bourse.workload.ExchangeCoreCommands.REDUCE;
import static io.bourse.workload.ExchangeCoreCommands.SIDE_BUY;
import static io.bourse.workload.ExchangeCoreCommands.SIDE_NONE;
import static io.bourse.workload.ExchangeCoreCommands.SIDE_SELL;
import static io.bourse.workload.ExchangeCoreCommands.TYPE_FOK_BUDGET;
import static io.bourse.workload.ExchangeCoreCommands.TYPE_GTC;
import static io.bourse.workload.ExchangeCoreCommands.TYPE_IOC;
import static io.bourse.workload.ExchangeCoreCommands.TYPE_NONE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExchangeCoreCommandsTest
{
    private static final String CSV = """
        seq,phase,cmd,order_id,uid,side,price,size,order_type,reserve_price
        0,SETUP,PLACE,1,393,BUY,34386,1,GTC,42985
        1,SETUP,PLACE,2,677,SELL,34400,7,GTC,0
        2,BENCH,PLACE,3,310,BUY,42985,61,IOC,42985
        3,BENCH,PLACE,4,12,SELL,257950,10,FOK_BUDGET,0
        4,BENCH,MOVE,1,393,,34390,,,
        5,BENCH,REDUCE,2,677,,,3,,
        6,BENCH,CANCEL,1,393,,,,,
        """;

    private record Command(byte kind, long orderId, int uid, byte side, long price, long size, byte orderType)
    {
    }

    private static List<Command> commands(final ExchangeCoreCommands commands)
    {
        final List<Command> list = new ArrayList<>();
        for (int i = 0; i < commands.count(); i++)
        {
            list.add(new Command(commands.kind(i), commands.orderId(i), commands.uid(i), commands.side(i),
                commands.price(i), commands.size(i), commands.orderType(i)));
        }
        return list;
    }

    private static final List<Command> EXPECTED = List.of(
        new Command(PLACE, 1, 393, SIDE_BUY, 34386, 1, TYPE_GTC),
        new Command(PLACE, 2, 677, SIDE_SELL, 34400, 7, TYPE_GTC),
        new Command(PLACE, 3, 310, SIDE_BUY, 42985, 61, TYPE_IOC),
        new Command(PLACE, 4, 12, SIDE_SELL, 257950, 10, TYPE_FOK_BUDGET),
        new Command(MOVE, 1, 393, SIDE_NONE, 34390, 0, TYPE_NONE),
        new Command(REDUCE, 2, 677, SIDE_NONE, 0, 3, TYPE_NONE),
        new Command(CANCEL, 1, 393, SIDE_NONE, 0, 0, TYPE_NONE));

    @Test
    void shouldReadEveryColumnAndPhaseBoundaryWhenCsvIsWellFormed() throws IOException
    {
        final ExchangeCoreCommands commands = read(CSV);

        assertThat(commands.count()).isEqualTo(7);
        assertThat(commands.benchStart()).isEqualTo(2);
        assertThat(commands(commands)).isEqualTo(EXPECTED);
    }

    @Test
    void shouldGunzipWhenFileNameEndsInGz(@TempDir final Path dir) throws IOException
    {
        final Path plain = dir.resolve("commands.csv");
        final Path gzipped = dir.resolve("commands.csv.gz");
        Files.writeString(plain, CSV.replace("\n", "\r\n"));
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gzipped)))
        {
            out.write(CSV.getBytes(StandardCharsets.US_ASCII));
        }

        assertThat(commands(ExchangeCoreCommands.load(plain))).isEqualTo(EXPECTED);
        assertThat(commands(ExchangeCoreCommands.load(gzipped))).isEqualTo(EXPECTED);
    }

    @Test
    void shouldPutBenchStartAtEndWhenThereIsNoBenchPhase() throws IOException
    {
        final ExchangeCoreCommands commands = read(CSV.lines().limit(3).map(l -> l + "\n").reduce("", String::concat));

        assertThat(commands.count()).isEqualTo(2);
        assertThat(commands.benchStart()).isEqualTo(2);
    }

    @Test
    void shouldSkipBlankLinesAndCountThemInTheLineNumbers() throws IOException
    {
        final String header = CSV.lines().findFirst().orElseThrow() + "\n";

        assertThat(commands(read(CSV + "\n\n"))).isEqualTo(EXPECTED);
        assertThat(commands(read(CSV.replace("\n", "\r\n") + "\r\n"))).isEqualTo(EXPECTED);
        assertThat(commands(read(CSV.replace("\n1,", "\n\n1,")))).isEqualTo(EXPECTED);
        assertThatThrownBy(() -> read(header + "\r\n\n0,SETUP,JUMP,1,1,BUY,1,1,GTC,0\n"))
            .hasMessage("line 4: unknown cmd JUMP");
    }

    @Test
    void shouldNameTheLineWhenRowIsMalformed()
    {
        final String header = CSV.lines().findFirst().orElseThrow() + "\n";

        assertThatThrownBy(() -> read("seq,cmd\n")).hasMessageStartingWith("line 1: expected header");
        assertThatThrownBy(() -> read(header + "0,SETUP,JUMP,1,1,BUY,1,1,GTC,0\n"))
            .hasMessage("line 2: unknown cmd JUMP");
        assertThatThrownBy(() -> read(header + "0,SETUP,PLACE,1,1,BUY,1x,1,GTC,0\n"))
            .hasMessage("line 2: bad number in column 7: '1x'");
        assertThatThrownBy(() -> read(header + "0,SETUP,PLACE,1,1,BUY,1,1,GTC\n"))
            .hasMessage("line 2: expected 10 columns but found 9");
        assertThatThrownBy(() -> read(header + "0,SETUP,PLACE,1,1,BUY,1,1,GTC,0\n2,BENCH,CANCEL,1,1,,,,,\n"))
            .hasMessage("line 3: seq 2 where 1 was expected");
        assertThatThrownBy(() -> read(header + "0,BENCH,CANCEL,1,1,,,,,\n1,SETUP,CANCEL,1,1,,,,,\n"))
            .hasMessage("line 3: SETUP row after the first BENCH row");
        assertThatThrownBy(() -> read(header + "0,SETUP,PLACE,1,1,,1,1,GTC,0\n"))
            .hasMessage("line 2: PLACE without side or order type");
    }

    private static ExchangeCoreCommands read(final String csv) throws IOException
    {
        return ExchangeCoreCommands.read(new ByteArrayInputStream(csv.getBytes(StandardCharsets.US_ASCII)));
    }
}
