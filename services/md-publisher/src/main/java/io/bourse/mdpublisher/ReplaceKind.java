package io.bourse.mdpublisher;

/**
 * What an engine replace did to the resting order (engine BookUpdate), which decides the ITCH 5.0 message shown. A
 * replace always loses time priority (OUCH 4.2), so the order always leaves its place.
 */
public enum ReplaceKind
{
    /** The order rests under a new reference number without matching: ITCH 5.0 Order Replace. */
    REPLACED,
    /**
     * The order left the book and its replacement was entered again (it matched, or was immediate-or-cancel): ITCH
     * 5.0 Order Delete, any remainder that rests added later.
     */
    REMOVED
}
