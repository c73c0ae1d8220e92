# Build: a static binary, reproducible paths, version stamped.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/runledger ./cmd/runledger

# Run: small, with a POSIX shell and git for `command`. GitHub runs Docker
# actions as root; nothing secret is baked in (the token comes as an input).
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates git \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/runledger /usr/local/bin/runledger
ENTRYPOINT ["/usr/local/bin/runledger"]
CMD ["action"]
