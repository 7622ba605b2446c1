# Herald container image. Node 22 runs the TypeScript sources directly (type stripping), so there is no
# build step: one stage installs the production dependencies, the other runs them as a non-root user.
#
#   docker build -t herald .
#   docker run -p 3000:3000 -v herald-data:/data herald                      # embedded SQLite, sandbox
#   docker run … herald start --role worker                                 # see compose.yaml
#   docker run --rm -v herald-data:/data herald keys create --name me       # any `herald` command
#
# Settings are environment variables (docs/operations.md). Never bake secrets into the image.

# The version the project pins through its `node` dev dependency (package.json).
ARG NODE_VERSION=22.23.3

FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only. No runtime dependency needs an install script: better-sqlite3 ships
# prebuilt binaries in its package, and the only scripts in the tree are the `node` dev dependency's
# download and core-js's banner.
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

FROM node:${NODE_VERSION}-bookworm-slim
# ffprobe (Debian's ffmpeg package) probes uploaded videos for the media library.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ffmpeg \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# MALLOC_ARENA_MAX: glibc gives each thread that allocates (libuv's pool, libvips, V8's GC helpers) an arena
# of its own, up to 8 per core, and memory freed in one is not reused by another. Two arenas kept an API
# process about 20 MB smaller under the soak (bench/RESULTS.md). glibc reads it when the process starts,
# so it is set here, not by Herald. jemalloc (LD_PRELOAD) and a fixed mmap threshold (GLIBC_TUNABLES) were
# measured too and did not slow the API processes' remaining rise, which is V8's (docs/operations.md, Memory).
ENV HOST=0.0.0.0 \
    PORT=3000 \
    HERALD_DATA_DIR=/data \
    MALLOC_ARENA_MAX=2
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json ./
COPY bin ./bin
COPY src ./src
# `herald` on the PATH (for `docker exec … herald keys list`); exec hands PID 1 and signals to node.
RUN mkdir -p /data \
 && chown node:node /data \
 && printf '#!/bin/sh\nexec node /app/src/cli/main.ts "$@"\n' > /usr/local/bin/herald \
 && chmod 755 /usr/local/bin/herald
# The embedded database and its generated encryption key live here (unused with DATABASE_URL).
VOLUME ["/data"]
USER node
EXPOSE 3000
# /healthz answers as soon as the process serves HTTP (every role listens on PORT). The image has no curl.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["herald"]
CMD ["start"]
