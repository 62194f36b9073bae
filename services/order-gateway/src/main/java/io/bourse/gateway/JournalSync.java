package io.bourse.gateway;

import java.util.Locale;

/**
 * When the session journals are forced to the storage device, and so what survives a crash. A sequenced message is
 * acknowledged when it has been sent to its client; the gateway never sends one before it is in the journal.
 */
public enum JournalSync
{
    /**
     * Each message is written to the operating system (no fsync) before it is sent: the messages of one duty cycle
     * are copied into a memory mapping of the session journal's file (the kernel's page cache, no system call) before
     * the first of them is sent. Nothing acknowledged is lost when the gateway process crashes or is killed; an
     * operating-system crash or power loss can lose the messages of the last seconds that the kernel had not yet
     * written back, and a client may hold some of them. The default: the lowest latency.
     */
    NONE,

    /**
     * As {@link #NONE}, and once per duty cycle in which something was written each journal written to is forced
     * (fdatasync, which on Linux also writes the pages stored to through the journal's mapping) before its new
     * messages are sent. Nothing acknowledged is lost even on an operating-system crash or power loss; each message
     * waits for the force of its duty cycle.
     */
    BATCH;

    /**
     * @param name {@code none} or {@code batch}, any case.
     * @return the policy.
     * @throws IllegalArgumentException for any other name.
     */
    public static JournalSync fromName(final String name)
    {
        return switch (name.toLowerCase(Locale.ROOT))
        {
            case "none" -> NONE;
            case "batch" -> BATCH;
            default -> throw new IllegalArgumentException("expected none or batch: " + name);
        };
    }
}
