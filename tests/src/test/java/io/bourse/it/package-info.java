/**
 * Integration tests that build the Bourse image from the repository's Dockerfile, run each service in its own
 * container on host networking and drive the exchange through real OUCH 4.2 and ITCH 5.0 sessions over SoupBinTCP,
 * or run the Grafana dashboards' queries against a real Prometheus scraping the services under load.
 */
package io.bourse.it;
