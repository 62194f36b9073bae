/** The {@code bourse} command: the embedded demo and exchange, the media driver, and one entry point per service. */
package io.bourse.launcher;
