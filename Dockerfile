# syntax=docker/dockerfile:1
# Multi-stage build: a static signsandbox binary (CGO_ENABLED=0, built the
# same way .ci/run builds it) in a minimal image, running as a non-root user.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/signsandbox ./cmd/signsandbox
# The data directory, created here because the runtime image has no shell.
RUN mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/signsandbox /usr/local/bin/signsandbox
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
