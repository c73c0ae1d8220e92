# Base images are pinned by tag and digest (the digest decides; the tag says
# what it was). The digests are the multi-platform index digests that
# docker-library/repo-info recorded for these tags (repos/golang/remote/
# 1.26-bookworm.md at 21d295b5, Go 1.26.5; repos/debian/remote/
# bookworm-20260918-slim.md at 43a0ed1e); Dependabot (.github/dependabot.yml)
# proposes newer ones.

# Build: a static binary, reproducible paths, version stamped.
FROM golang:1.26-bookworm@sha256:551752d3ad9de9923190bf5280500617ed8fee287ffb4b0220e770ef89346258 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/runledger ./cmd/runledger

# Run: small, with a POSIX shell and git for `command`. GitHub runs Docker
# actions as root; nothing secret is baked in (the token comes as an input).
FROM debian:bookworm-20260918-slim@sha256:3783cc01769c7b2b1b83a5c5ad96c815348e28ed7da68e2e3687004faa906251
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates git \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/runledger /usr/local/bin/runledger
# Tells runledger it runs in this image: it then refuses a store outside
# the workspace, explains a command the image lacks, and gives what the
# step wrote back to the workspace's owner.
ENV RUNLEDGER_IMAGE=1
ENTRYPOINT ["/usr/local/bin/runledger"]
CMD ["action"]
