# syntax=docker/dockerfile:1
# Iron Curtain Online: one image serving the lobby, the game service and the web client.
# The same install and build commands run in CI (apps/server/test/docker-image.test.ts).

# The newest Node LTS line (26, LTS since October 2026); the suite runs on it and on the floor
# `engines` names (.ci/run).
ARG NODE_IMAGE=node:26-bookworm-slim

# Every dependency, then the web client (Vite) and the server bundle (esbuild).
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY packages/game/package.json packages/game/
COPY packages/protocol/package.json packages/protocol/
COPY packages/bots/package.json packages/bots/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
# No dependency needs an install script (the project approves none); esbuild's binary
# comes as an ordinary optional package.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build -w @iron-curtain/web && npm run build -w @iron-curtain/server

# The bundle and the built web client: no node_modules (the embedded store is Node's own
# node:sqlite), no dev dependency, no compiler, no source.
FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /data \
  && chown node:node /data
WORKDIR /app
COPY --from=build /src/apps/server/package.json apps/server/package.json
COPY --from=build /src/apps/server/dist apps/server/dist
COPY --from=build /src/apps/web/dist apps/web/dist
COPY deploy/healthcheck.mjs healthcheck.mjs
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=8000 \
  DATA_DIR=/data \
  WEB_DIST=/app/apps/web/dist
USER node
# The embedded store (used when DATABASE_URL is unset) keeps its file here.
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "/app/healthcheck.mjs"]
# tini forwards SIGTERM to the server (which then finishes queued moves) and reaps zombies.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "apps/server/dist/main.js"]
