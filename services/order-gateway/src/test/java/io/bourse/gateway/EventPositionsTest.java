package io.bourse.gateway;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventPositionsTest
{
    @TempDir
    private Path directory;

    @Test
    void shouldHaveNoPositionInANewFile() throws Exception
    {
        try (EventPositions positions = EventPositions.open(directory, 2))
        {
            assertThat(positions.position(0, 0)).isEqualTo(-1);
            assertThat(positions.position(1, 7)).isEqualTo(-1);
        }
        assertThat(Files.size(directory.resolve(EventPositions.FILE_NAME))).isEqualTo(2 * EventPositions.ENTRY_LENGTH);
    }

    @Test
    void shouldCopyEveryShardsEntryToTheNextDaysPositions() throws Exception
    {
        final Path nextDay = Files.createDirectories(directory.resolve("next"));
        try (EventPositions positions = EventPositions.open(directory, 2);
            EventPositions next = EventPositions.open(nextDay, 2))
        {
            positions.store(1, 42, 4_096);
            positions.copyTo(next);

            assertThat(next.isStored(0)).isFalse();
            assertThat(next.sessionId(1)).isEqualTo(42);
            assertThat(next.position(1, 42)).isEqualTo(4_096);
        }
        try (EventPositions next = EventPositions.open(nextDay, 2))
        {
            assertThat(next.position(1, 42)).as("in the next day's file").isEqualTo(4_096);
        }
    }

    @Test
    void shouldKeepTheLastPositionOfEachShardAcrossAReopen() throws Exception
    {
        try (EventPositions positions = EventPositions.open(directory, 2))
        {
            positions.store(0, -438545748, 1_024);
            positions.store(0, -438545748, 7_619_584);
            positions.store(1, 5, 96);
        }
        try (EventPositions positions = EventPositions.open(directory, 2))
        {
            assertThat(positions.position(0, -438545748)).isEqualTo(7_619_584);
            assertThat(positions.position(1, 5)).isEqualTo(96);
        }
    }

    @Test
    void shouldGiveNoPositionForAnotherRunOfTheShard() throws Exception
    {
        try (EventPositions positions = EventPositions.open(directory, 1))
        {
            positions.store(0, 11, 4_096);
            assertThat(positions.position(0, 12)).isEqualTo(-1);
            positions.store(0, 12, 64);
            assertThat(positions.position(0, 12)).isEqualTo(64);
            assertThat(positions.position(0, 11)).isEqualTo(-1);
        }
    }

    @Test
    void shouldSetAnEntryForAStreamOfSessionIdZero() throws Exception
    {
        try (EventPositions positions = EventPositions.open(directory, 1))
        {
            positions.store(0, 0, 128);
            assertThat(positions.position(0, 0)).isEqualTo(128);
        }
    }

    @Test
    void shouldKeepTheEntriesOfAFileOfFewerShards() throws Exception
    {
        try (EventPositions positions = EventPositions.open(directory, 1))
        {
            positions.store(0, 3, 256);
        }
        try (EventPositions positions = EventPositions.open(directory, 3))
        {
            assertThat(positions.position(0, 3)).isEqualTo(256);
            assertThat(positions.position(2, 0)).isEqualTo(-1);
        }
    }

    @Test
    void shouldRefuseNoShardsAndMoreThanTheJournalsHold()
    {
        assertThatThrownBy(() -> EventPositions.open(directory, 0)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("1..65536");
        assertThatThrownBy(() -> EventPositions.open(directory, EventPositions.MAX_SHARDS + 1))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
