/** Aeron wiring shared by the services: stream layout and bounded, counted publication offers. */
package io.bourse.common.aeron;
