# syntax=docker/dockerfile:1
# The contest portal as one image: the built web app served by the Fastify server.
#   docker build -t contest-portal .
#   docker run --init -p 3000:3000 -v contest-data:/data contest-portal
# Production setup (two instances, PostgreSQL, Redis, MinIO, nginx): deploy/compose.yaml and
# docs/deploy.md. apps/server/test/deploy-files.test.ts keeps this file honest in CI.

ARG NODE_IMAGE=node:20-bookworm-slim

# --- deps: every workspace's dependencies, dev ones included (the build needs vite, esbuild, tsx).
# Only the manifests are copied, so this layer is rebuilt only when a dependency changes.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund

# --- build: apps/web/dist (vite) and apps/server/dist (esbuild bundle with @contest/shared inside,
# migrations copied to dist/migrations).
FROM deps AS build
COPY . .
RUN npm run build
# apps/server/build.mjs also bundles the backup, restore and score-log commands next to
# server.js, so the runtime image runs them without tsx (docs/backup.md, docs/deploy.md "Backups").

# --- runtime: the server's production dependencies and the two dist folders, nothing else.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# The server bundle contains @contest/shared; the workspace manifests are only there so npm can
# resolve the lockfile. Only @contest/server's production dependencies are installed (no web deps:
# the web app is static files by now). Native packages (@node-rs/argon2, @napi-rs/canvas) come as
# prebuilt glibc binaries, so no compiler is needed.
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
RUN npm ci --omit=dev --workspace @contest/server --no-audit --no-fund \
  && npm cache clean --force
# dist/ holds server.js, seed.js, backup-cli.js, restore-cli.js and migrations/ (run at every start).
COPY --from=build /app/apps/server/dist apps/server/dist
# Served from apps/server/dist/../../web/dist, the server's default (WEB_DIST_DIR unset).
COPY --from=build /app/apps/web/dist apps/web/dist

# DATA_DIR: the embedded database (DATA_DIR/pglite) when DATABASE_URL is unset, stored files with
# STORAGE_DRIVER=disk, and always the pieces of chunked uploads in progress (DATA_DIR/uploads).
ENV DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=3000
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]

# The image's unprivileged "node" user (uid 1000): owns /data, cannot write the application.
USER node
EXPOSE 3000

# /api/health: 200 when the database (and Redis, when configured) answer, else 503. The first
# start migrates and seeds, hence the start period.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# node itself is PID 1 and handles SIGTERM (graceful shutdown within SHUTDOWN_TIMEOUT_MS); run
# with --init (compose: init: true) so a zombie can never pile up.
CMD ["node", "apps/server/dist/server.js"]
