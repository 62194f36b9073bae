/** The matching-engine service: one shard's agent that reads SBE commands from Aeron and publishes SBE events. */
package io.bourse.engine;
