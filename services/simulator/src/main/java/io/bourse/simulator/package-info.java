/** The simulator: open-loop OUCH 4.2 order flow and ITCH 5.0 subscribers that measure the exchange end to end. */
package io.bourse.simulator;
