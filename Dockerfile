# syntax=docker/dockerfile:1
# Multi-stage build: a static signsandbox binary (CGO_ENABLED=0, built the
# same way .ci/run builds it) in a minimal image, running as a non-root user.
# release.Dockerfile makes the same image from the binaries GoReleaser built;
# a test keeps the two final stages alike.
#
# VERSION and COMMIT stamp what `signsandbox version` prints, e.g.
#   docker build --build-arg VERSION=$(git describe --tags --always) \
#     --build-arg COMMIT=$(git rev-parse HEAD) -t signsandbox .
# (without them it prints "dev").
FROM golang:1.26 AS build
ARG VERSION=""
ARG COMMIT=""
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -o /out/signsandbox \
  -ldflags="-s -w -X github.com/signsandbox/signsandbox/sandbox/internal/buildinfo.version=${VERSION} -X github.com/signsandbox/signsandbox/sandbox/internal/buildinfo.commit=${COMMIT}" \
  ./cmd/signsandbox
# The data directory, created here because the runtime image has no shell.
RUN mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/signsandbox /usr/local/bin/signsandbox
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
