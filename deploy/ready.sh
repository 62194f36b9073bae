#!/usr/bin/env bash
# Health check of a Bourse service container: ready.sh METRICS_PORT [PORT...]
# Succeeds when http://127.0.0.1:METRICS_PORT/ready answers 200 (the service can do its work: e.g. the order gateway's
# engine shards are subscribed) and every further PORT accepts a connection (the gateway's OUCH port). Plain bash
# (/dev/tcp), as the runtime image has no curl; prints the service's answer when it is not ready.
set -u
metrics_port="$1"
shift
exec 3<>"/dev/tcp/127.0.0.1/$metrics_port" || exit 1
printf 'GET /ready HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
read -r status <&3 || exit 1
if [[ "$status" != *" 200 "* ]]; then
  sed -n '/^\r$/,$p' <&3 | tail -n +2
  exit 1
fi
exec 3<&-
for port in "$@"; do
  exec 4<>"/dev/tcp/127.0.0.1/$port" || exit 1
  exec 4<&-
done
