# One image for every Bourse service: `docker run bourse <command>` where command is one of the launcher's
# subcommands (media-driver, engine, gateway, md-publisher, fanout, simulator, demo, exchange).
#
# The base images are build arguments so that hosts without a registry can substitute local ones
# (scripts/airgap-bootstrap.sh writes them to .env); elsewhere the upstream Temurin images are used.
ARG BOURSE_JDK_IMAGE=eclipse-temurin:25-jdk
ARG BOURSE_JRE_IMAGE=eclipse-temurin:25-jre

# Every pom.xml, the Maven wrapper and the SBE schemas, without the Java sources. This stage reruns on any
# change, but the files it leaves are identical until a pom or schema changes, so the COPY --from below (whose
# cache key is the content of the files, not their time stamps) keeps the dependency layer cached.
FROM ${BOURSE_JDK_IMAGE} AS poms
WORKDIR /src
COPY . .
RUN find . -type f ! -name pom.xml ! -name mvnw ! -path './.mvn/*' ! -path './schemas/*' -delete \
 && find . -depth -mindepth 1 -type d -empty -delete

FROM ${BOURSE_JDK_IMAGE} AS build
ENV MAVEN_OPTS=--sun-misc-unsafe-memory-access=allow
WORKDIR /src
COPY --from=poms /src/ ./
# Build the module tree without Java sources: downloads Maven, every plugin and every dependency of the launcher
# and its modules into /root/.m2 and keeps them in this layer (dependency:go-offline misses plugin dependencies
# and cannot resolve the reactor's own snapshot modules).
RUN ./mvnw -B -q package -Dmaven.test.skip=true -pl launcher -am \
 && find . -name target -type d -prune -exec rm -rf {} +
COPY . .
RUN ./mvnw -B -q package -Dmaven.test.skip=true -pl launcher -am

FROM ${BOURSE_JRE_IMAGE}
# The services run as an unprivileged user, uid and gid 1000 by default (BOURSE_UID / BOURSE_GID at build time), the
# first user of most Linux hosts: its Aeron directory in /dev/shm is then that user's too, whose `./bourse admin`,
# `feed` and `bench --target running` on the host can map it. An existing user or group with that id (`ubuntu` in the
# upstream Temurin images) is used as it is. The directories of the compose file's volumes are made here, owned by it,
# so that a new volume is created with that owner; a volume written by a stack from before stop 59, whose containers
# ran as root, is not writable: `docker compose down -v` removes it (README, "Users and limits").
ARG BOURSE_UID=1000
ARG BOURSE_GID=1000
RUN (getent group "${BOURSE_GID}" > /dev/null || groupadd --gid "${BOURSE_GID}" bourse) \
 && (getent passwd "${BOURSE_UID}" > /dev/null \
     || useradd --uid "${BOURSE_UID}" --gid "${BOURSE_GID}" --no-create-home --no-log-init \
        --shell /usr/sbin/nologin bourse) \
 && mkdir -p /var/lib/bourse/gateway-journal /var/lib/bourse/event-archive \
 && chown -R "${BOURSE_UID}:${BOURSE_GID}" /var/lib/bourse
WORKDIR /opt/bourse
COPY --from=build /src/launcher/target/lib/ /opt/bourse/lib/
COPY deploy/ /opt/bourse/deploy/
USER ${BOURSE_UID}:${BOURSE_GID}
# Aeron's directory lives in /dev/shm, shared between the service containers with `ipc: host`.
ENV BOURSE_AERON_DIR=/dev/shm/aeron-bourse
ENTRYPOINT ["java", "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED", \
    "-cp", "/opt/bourse/lib/*", "io.bourse.launcher.BourseMain"]
CMD ["exchange"]
