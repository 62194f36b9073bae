#!/usr/bin/env bash
# Air-gap bootstrap: Docker Engine, Compose v2 and local base images on a host that has no container
# registry (see README "Air-gapped hosts"). Idempotent: every step checks before it acts.
#
# It writes two git-ignored files at the repository root so that plain `docker compose up` and the
# Testcontainers tests use the local images:
#   .env                        BOURSE_JDK_IMAGE, BOURSE_JRE_IMAGE, PROMETHEUS_IMAGE, BOURSE_DEBIAN_IMAGE (local
#                               substitutes)
#   docker-compose.override.yml moves Grafana (not obtainable without a registry) into a profile
# A normal machine with Docker and a registry needs none of this.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JDK_DIR="${AIRGAP_JDK_DIR:-/usr/lib/jvm/temurin-25-jdk-amd64}"
COMPOSE_VERSION="${AIRGAP_COMPOSE_VERSION:-v2.29.7}"
BASE_IMAGE=bourse-local/debian:bookworm
JDK_IMAGE=bourse-local/temurin:25-jdk
JRE_IMAGE=bourse-local/temurin:25-jre
PROM_IMAGE=bourse-local/prometheus:bookworm

log() { printf '[airgap] %s\n' "$*"; }

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi

ensure_engine() {
  if docker info >/dev/null 2>&1; then log "docker engine is up"; return; fi
  if ! command -v dockerd >/dev/null 2>&1; then
    log "installing docker.io"
    $SUDO apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q docker.io >/dev/null 2>&1
  fi
  log "starting dockerd"
  $SUDO sh -c 'nohup dockerd >/var/log/dockerd.log 2>&1 &'
  for _ in $(seq 1 60); do
    if docker info >/dev/null 2>&1; then log "docker engine is up"; return; fi
    sleep 1
  done
  log "dockerd did not come up; see /var/log/dockerd.log"; exit 1
}

ensure_compose() {
  if docker compose version >/dev/null 2>&1; then log "$(docker compose version)"; return; fi
  command -v go >/dev/null 2>&1 || { log "go is needed to build docker compose v2"; exit 1; }
  log "building docker compose ${COMPOSE_VERSION} from the Go module proxy (about two minutes)"
  GOFLAGS=-mod=mod go install "github.com/docker/compose/v2/cmd@${COMPOSE_VERSION}" >/tmp/bourse-compose-build.log 2>&1 \
    || { log "compose build failed; see /tmp/bourse-compose-build.log"; exit 1; }
  $SUDO mkdir -p /usr/local/lib/docker/cli-plugins
  $SUDO cp "$(go env GOPATH)/bin/cmd" /usr/local/lib/docker/cli-plugins/docker-compose
  log "$(docker compose version)"
}

have_image() { docker image inspect "$1" >/dev/null 2>&1; }

ensure_base_image() {
  if have_image "$BASE_IMAGE"; then log "$BASE_IMAGE present"; return; fi
  command -v debootstrap >/dev/null 2>&1 || {
    $SUDO apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q debootstrap >/dev/null 2>&1
  }
  local mirror
  mirror="$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)"
  [ -n "$mirror" ] || mirror="$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)"
  [ -n "$mirror" ] || { log "no Debian mirror found in the apt sources"; exit 1; }
  local rootfs
  rootfs="$(mktemp -d /tmp/bourse-rootfs.XXXXXX)"
  log "debootstrap bookworm from ${mirror} (about 90 s)"
  $SUDO debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >/tmp/bourse-debootstrap.log 2>&1
  $SUDO tar -C "$rootfs" -c . | docker import - "$BASE_IMAGE" >/dev/null
  $SUDO rm -rf "$rootfs"
  log "$BASE_IMAGE imported"
}

ensure_java_images() {
  [ -x "$JDK_DIR/bin/java" ] || { log "no JDK at $JDK_DIR (set AIRGAP_JDK_DIR)"; exit 1; }
  local ctx
  if ! have_image "$JDK_IMAGE"; then
    ctx="$(mktemp -d /tmp/bourse-jdk.XXXXXX)"
    cp -a "$JDK_DIR" "$ctx/jdk"
    # The host's JDK package links cacerts to /etc/ssl/certs/java/cacerts, which the image lacks: copy the file.
    if [ -L "$ctx/jdk/lib/security/cacerts" ]; then
      cp --remove-destination "$(readlink -f "$JDK_DIR/lib/security/cacerts")" "$ctx/jdk/lib/security/cacerts"
    fi
    printf 'FROM %s\nCOPY jdk /opt/java/openjdk\nENV JAVA_HOME=/opt/java/openjdk PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n' \
      "$BASE_IMAGE" >"$ctx/Dockerfile"
    docker build -q -t "$JDK_IMAGE" "$ctx" >/dev/null
    rm -rf "$ctx"
    log "$JDK_IMAGE built from $JDK_DIR"
  else
    log "$JDK_IMAGE present"
  fi
  if ! have_image "$JRE_IMAGE"; then
    ctx="$(mktemp -d /tmp/bourse-jre.XXXXXX)"
    local modules
    modules="$("$JDK_DIR/bin/java" --list-modules | sed 's/@.*//' | grep -v '^jdk\.\(hotspot\.agent\|jcmd\|jdeps\|jlink\|jpackage\|javadoc\|jshell\|compiler\)$' | paste -sd, -)"
    "$JDK_DIR/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
      --output "$ctx/jre"
    printf 'FROM %s\nCOPY jre /opt/java/openjdk\nENV JAVA_HOME=/opt/java/openjdk PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n' \
      "$BASE_IMAGE" >"$ctx/Dockerfile"
    docker build -q -t "$JRE_IMAGE" "$ctx" >/dev/null
    rm -rf "$ctx"
    log "$JRE_IMAGE built (jlink runtime)"
  else
    log "$JRE_IMAGE present"
  fi
}

ensure_prometheus_image() {
  if have_image "$PROM_IMAGE"; then log "$PROM_IMAGE present"; return; fi
  local ctx
  ctx="$(mktemp -d /tmp/bourse-prom.XXXXXX)"
  cat >"$ctx/Dockerfile" <<DOCKERFILE
FROM ${BASE_IMAGE}
RUN apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends prometheus \
 && rm -rf /var/lib/apt/lists/*
ENTRYPOINT ["/usr/bin/prometheus"]
CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus"]
DOCKERFILE
  docker build -q -t "$PROM_IMAGE" "$ctx" >/dev/null
  rm -rf "$ctx"
  log "$PROM_IMAGE built from Debian's prometheus package"
}

# Sets one variable in .env, keeping every other line (the user's own settings: README, Simulator scenarios).
set_env() {
  local key="$1" value="$2" file="$ROOT/.env"
  awk -v key="$key" -v value="$value" '
    index($0, key "=") == 1 { if (!set) print key "=" value; set = 1; next }
    { print }
    END { if (!set) print key "=" value }
  ' "$file" >"$file.tmp"
  mv "$file.tmp" "$file"
}

write_local_settings() {
  touch "$ROOT/.env"
  if [ -s "$ROOT/.env" ] && [ -n "$(tail -c1 "$ROOT/.env")" ]; then
    echo >>"$ROOT/.env" # the user's last line ends here, before ours
  fi
  if ! grep -q '^# Set by scripts/airgap-bootstrap.sh' "$ROOT/.env"; then
    echo '# Set by scripts/airgap-bootstrap.sh: local substitutes for the upstream base images.' >>"$ROOT/.env"
  fi
  set_env BOURSE_JDK_IMAGE "$JDK_IMAGE"
  set_env BOURSE_JRE_IMAGE "$JRE_IMAGE"
  set_env PROMETHEUS_IMAGE "$PROM_IMAGE"
  set_env BOURSE_DEBIAN_IMAGE "$BASE_IMAGE"
  cat >"$ROOT/docker-compose.override.yml" <<'YAML'
# Written by scripts/airgap-bootstrap.sh: Grafana cannot be obtained without a registry, so it only
# starts with `--profile grafana` here. Delete this file on a machine that can pull images.
services:
  grafana:
    profiles: ["grafana"]
YAML
  log "wrote .env and docker-compose.override.yml"
}

ensure_engine
ensure_compose
ensure_base_image
ensure_java_images
ensure_prometheus_image
write_local_settings
log "done"
