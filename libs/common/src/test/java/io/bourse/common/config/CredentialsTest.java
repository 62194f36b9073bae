package io.bourse.common.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CredentialsTest
{
    @Test
    void shouldReadTheUsersOfTheFileSkippingTheHeaderCommentsAndBlankLines(@TempDir final Path dir) throws IOException
    {
        final Path file = Files.writeString(dir.resolve("users.csv"),
            "username,password,firm\n# traders\n\ntrdr01,trdr01pw,FIRM\n md01 , md01pw , DEMO \n");

        final Credentials credentials = Credentials.fromSettings(
            new Settings(Map.of("BOURSE_CREDENTIALS_FILE", file.toString())));

        assertThat(credentials.users()).containsExactly(
            new Credentials.User("trdr01", "trdr01pw", "FIRM"), new Credentials.User("md01", "md01pw", "DEMO"));
        assertThat(credentials.authenticate("md01", "md01pw")).isEqualTo(credentials.users().get(1));
        assertThat(credentials.authenticate("md01", "trdr01pw")).isNull();
        assertThat(credentials.authenticate("nobody", "")).isNull();
    }

    @Test
    void shouldTakeTheUsersOfTheEnvironmentSeparatedBySemicolonsOrLineBreaksInsteadOfTheFile()
        throws IOException
    {
        final Settings settings = new Settings(Map.of(
            "BOURSE_CREDENTIALS", "envu01,envu01pw,ENVF; envu02,envu02pw,ENVF;\nenvmd,envmdpw,\n"));

        final Credentials credentials = Credentials.fromSettings(settings);

        assertThat(credentials.users()).containsExactly(
            new Credentials.User("envu01", "envu01pw", "ENVF"), new Credentials.User("envu02", "envu02pw", "ENVF"),
            new Credentials.User("envmd", "envmdpw", ""));
        assertThat(Credentials.inline(settings).users()).isEqualTo(credentials.users());
    }

    @Test
    void shouldLeaveTheUsersToTheFileWhenTheEnvironmentGivesNone()
    {
        assertThat(Credentials.inline(new Settings(Map.of()))).isNull();
        assertThat(Credentials.inline(new Settings(Map.of("BOURSE_CREDENTIALS", "")))).isNull();
    }

    @Test
    void shouldRefuseBothTheEnvironmentAndTheFile()
    {
        final Settings settings = new Settings(Map.of(
            "BOURSE_CREDENTIALS", "envu01,envu01pw,ENVF", "BOURSE_CREDENTIALS_FILE", "deploy/credentials.csv"));

        assertThatThrownBy(() -> Credentials.fromSettings(settings))
            .isInstanceOf(IllegalStateException.class)
            .hasMessage("bourse.credentials and bourse.credentials.file are both set: give the users in one of them");
    }

    @Test
    void shouldNameTheSettingAndTheRecordButNotThePasswordOfAMalformedRecord()
    {
        final Settings missingField = new Settings(Map.of("BOURSE_CREDENTIALS", "envu01,envu01pw,ENVF;envu02,s3cret"));
        final Settings longPassword = new Settings(Map.of("BOURSE_CREDENTIALS", "envu01,password123,ENVF"));

        assertThatThrownBy(() -> Credentials.inline(missingField))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("bourse.credentials: record 2: expected username,password,firm, found 2 fields");
        assertThatThrownBy(() -> Credentials.inline(longPassword))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("record 1 (user 'envu01'): username must be 1..6 characters, password 1..10")
            .hasMessageNotContaining("password123");
    }

    @Test
    void shouldRefuseAUserWithoutPasswordWhomABlankLoginWouldLetIn()
    {
        assertThatThrownBy(() -> Credentials.parse(List.of("u1,pw1,F", "u2, ,F")))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("record 2 (user 'u2'): username must be 1..6 characters, password 1..10, firm at most 4");
        assertThatThrownBy(() -> Credentials.parse(List.of("u3,,F")))
            .hasMessageStartingWith("record 1 (user 'u3'): ");
        assertThat(Credentials.parse(List.of("u4,pw4,")).authenticate("u4", "pw4")).isNotNull();
    }

    @Test
    void shouldNameTheFileAndTheLineOfAMalformedRecord(@TempDir final Path dir) throws IOException
    {
        final Path file = Files.writeString(dir.resolve("users.csv"), "username,password,firm\ntrdr01,pw,FIRM,X\n");

        assertThatThrownBy(() -> Credentials.load(file))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage(file + ": record 2: expected username,password,firm, found 4 fields");
    }

    @Test
    void shouldRefuseAnEnvironmentSettingWithoutUsers()
    {
        assertThatThrownBy(() -> Credentials.inline(new Settings(Map.of("BOURSE_CREDENTIALS", " ; ;"))))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("bourse.credentials holds no username,password,firm record");
    }

    @Test
    void shouldTakeTheLastRecordOfAUserGivenTwice()
    {
        final Credentials credentials = Credentials.parse(List.of("u1,old,F", "u1,new,F"));

        assertThat(credentials.size()).isEqualTo(1);
        assertThat(credentials.authenticate("u1", "new")).isNotNull();
        assertThat(credentials.authenticate("u1", "old")).isNull();
    }
}
