#!/bin/sh
# What the redis image does for `redis-server ...`: runs it as the redis user, with
# protected mode off (the image builds Redis that way; Debian's default is on).
set -eu
if [ "${1:-}" = redis-server ]; then
  shift
  exec setpriv --reuid=redis --regid=redis --init-groups redis-server --protected-mode no "$@"
fi
exec "$@"
