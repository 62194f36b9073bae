/** Exchange time: nanoseconds since midnight UTC, as ITCH 5.0 and the engine protocol carry it. */
package io.bourse.common.time;
