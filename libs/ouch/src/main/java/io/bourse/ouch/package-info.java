/** NASDAQ OUCH 4.2 order-entry messages as allocation-free flyweights over Agrona buffers. */
package io.bourse.ouch;
