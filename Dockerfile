# syntax=docker/dockerfile:1
# The rdmarepl image: one image for every role (ship, apply, coordinate) and the runbook commands.
# It packages the jar Maven built (cli/target/rdmarepl.jar, the product); build that first:
#   mvn -B -DskipTests package && docker build -t rdmarepl .
# Targets: runtime (the default: shm:// and softrdma://), rdma (adds rdma-core and libdisni for rdma://) and bench
# (adds the harness jar, harness/target/rdmarepl-harness.jar, for `rdmarepl bench`; never deployed as a role):
#   docker build --target rdma -t rdmarepl:rdma .
#   docker build --target bench -t rdmarepl:bench .
# Not built in CI (no Docker engine there): docs/deployment.md, "In containers".

ARG JRE_IMAGE=eclipse-temurin:17-jre

FROM ${JRE_IMAGE} AS base
RUN set -eux; \
    if ! command -v curl >/dev/null; then \
        apt-get update; apt-get install -y --no-install-recommends curl; rm -rf /var/lib/apt/lists/*; \
    fi; \
    groupadd --system --gid 10001 rdmarepl; \
    useradd --system --uid 10001 --gid rdmarepl --home-dir /var/lib/rdmarepl --shell /usr/sbin/nologin rdmarepl; \
    mkdir -p /opt/rdmarepl/bin /opt/rdmarepl/lib /etc/rdmarepl /var/lib/rdmarepl/bench; \
    chown -R rdmarepl:rdmarepl /var/lib/rdmarepl
# the same layout as the distribution archive: bin/rdmarepl runs lib/rdmarepl.jar
COPY packaging/bin/rdmarepl /opt/rdmarepl/bin/rdmarepl
COPY cli/target/rdmarepl.jar /opt/rdmarepl/lib/rdmarepl.jar
COPY config/ /opt/rdmarepl/config/
RUN chmod 0755 /opt/rdmarepl/bin/rdmarepl
ENV PATH=/opt/rdmarepl/bin:$PATH \
    RDMAREPL_JAVA_OPTS="-XX:MaxRAMPercentage=50 -XX:+ExitOnOutOfMemoryError" \
    RDMAREPL_ADMIN_PORT=7480
WORKDIR /var/lib/rdmarepl
USER rdmarepl:rdmarepl
# admin ports: shipper 7480, applier 9472, coordinator 7490; ring (softrdma://, rdma://) 7471
EXPOSE 7480 9472 7490 7471
# every role serves /health on its admin port: set RDMAREPL_ADMIN_PORT to it (compose does, per service)
HEALTHCHECK --interval=5s --timeout=3s --start-period=60s --retries=3 \
    CMD curl -fsS -o /dev/null "http://127.0.0.1:${RDMAREPL_ADMIN_PORT}/health" || exit 1
ENTRYPOINT ["/opt/rdmarepl/bin/rdmarepl"]
CMD ["--help"]

# libdisni, DiSNI's JNI library, built from source against rdma-core (DiSNI publishes no binary)
FROM eclipse-temurin:17-jdk AS libdisni
# a DiSNI tag whose libdisni matches the disni jar in rdmarepl.jar (2.1)
ARG DISNI_REF=v2.1
RUN set -eux; \
    apt-get update; \
    apt-get install -y --no-install-recommends git ca-certificates build-essential autoconf automake libtool \
        libibverbs-dev librdmacm-dev; \
    git clone --depth 1 --branch "${DISNI_REF}" https://github.com/zrlio/disni.git /src/disni; \
    cd /src/disni/libdisni; \
    ./autoprepare.sh; \
    ./configure --with-jdk="${JAVA_HOME}"; \
    make install

FROM base AS rdma
USER root
RUN set -eux; \
    apt-get update; \
    apt-get install -y --no-install-recommends libibverbs1 librdmacm1 ibverbs-providers; \
    rm -rf /var/lib/apt/lists/*
COPY --from=libdisni /usr/local/lib/libdisni* /usr/local/lib/
RUN ldconfig
ENV RDMAREPL_JAVA_OPTS="-XX:MaxRAMPercentage=50 -XX:+ExitOnOutOfMemoryError -Djava.library.path=/usr/local/lib"
USER rdmarepl:rdmarepl

# the bench client (docker compose --profile bench): the product plus the harness jar, which bin/rdmarepl runs for
# `bench` and `demo`; the harness carries embedded PostgreSQL and JUnit, so no role image holds it
FROM base AS bench
COPY harness/target/rdmarepl-harness.jar /opt/rdmarepl/lib/rdmarepl-harness.jar

# the default target: shm:// and softrdma://
FROM base AS runtime
