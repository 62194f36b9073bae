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
WORKDIR /opt/bourse
COPY --from=build /src/launcher/target/lib/ /opt/bourse/lib/
COPY deploy/ /opt/bourse/deploy/
# Aeron's directory lives in /dev/shm, shared between the service containers with `ipc: host`.
ENV BOURSE_AERON_DIR=/dev/shm/aeron-bourse
ENTRYPOINT ["java", "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED", \
    "-cp", "/opt/bourse/lib/*", "io.bourse.launcher.BourseMain"]
CMD ["exchange"]
