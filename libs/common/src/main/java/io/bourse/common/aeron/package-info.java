/**
 * Aeron wiring shared by the services: stream layout, the event archive that records the engine streams, bounded
 * counted publication offers, and the agent threads with the CPUs they are pinned to.
 */
package io.bourse.common.aeron;
