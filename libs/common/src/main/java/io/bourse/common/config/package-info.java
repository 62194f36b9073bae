/** Settings read from system properties and environment variables, with defaults that work on one small host. */
package io.bourse.common.config;
