# syntax=docker/dockerfile:1
# The image a release publishes (.goreleaser.yaml, dockers_v2): the image
# Dockerfile builds, made from the binary GoReleaser built for each target
# platform instead of compiling in the image. GoReleaser puts that binary at
# $TARGETPLATFORM/signsandbox in the build context, beside LICENSE and
# THIRD_PARTY_NOTICES. A test keeps the final stage as Dockerfile's.
FROM --platform=$BUILDPLATFORM busybox:1.37 AS build
# The data directory, created here because the runtime image has no shell.
RUN mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
ARG TARGETPLATFORM
COPY $TARGETPLATFORM/signsandbox /usr/local/bin/signsandbox
# The licence of signsandbox and those of what its binary carries.
COPY LICENSE THIRD_PARTY_NOTICES /usr/share/doc/signsandbox/
# Listen on all interfaces inside the container. The control plane is then
# open to whoever reaches the port (the banner says so): a sandbox others
# can reach gets -e SIGNSANDBOX_ADMIN_TOKEN=... (README, Security), and
# SIGNSANDBOX_ALLOWED_HOSTS names the hosts other containers call it by.
ENV SIGNSANDBOX_ADDR=0.0.0.0:8080
EXPOSE 8080
# Worlds survive restarts when SIGNSANDBOX_DATA_DIR points here (off by
# default): docker run -e SIGNSANDBOX_DATA_DIR=/var/lib/signsandbox
# -v signsandbox-data:/var/lib/signsandbox ...
COPY --from=build --chown=nonroot:nonroot /out/data /var/lib/signsandbox
VOLUME /var/lib/signsandbox
USER nonroot:nonroot
HEALTHCHECK --interval=10s --timeout=3s --start-period=2s --retries=3 \
  CMD ["/usr/local/bin/signsandbox", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/signsandbox"]
