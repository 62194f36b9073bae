/** The order gateway: OUCH 4.2 over SoupBinTCP 4.0 sessions in, SBE engine commands out, engine events back. */
package io.bourse.gateway;
