package io.bourse.mdpublisher;

/** What an engine replace did to the resting order (engine BookUpdate), which decides the ITCH 5.0 message shown. */
public enum ReplaceKind
{
    /**
     * Same price and time in force, size not increased: reduced in place, shown as ITCH 5.0 Order Cancel of the
     * difference.
     */
    PRIORITY_KEPT,
    /** The order rests under a new reference number without matching: ITCH 5.0 Order Replace. */
    REPLACED,
    /**
     * The order left the book and its replacement was entered again (it matched, or was immediate-or-cancel): ITCH
     * 5.0 Order Delete, any remainder that rests added later.
     */
    REMOVED
}
