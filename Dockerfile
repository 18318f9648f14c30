# Milepost's container image: the server on Node.js 24, as `npm ci` and `npm start` run it (README.md).
#   docker build -t milepost .
#   docker run -p 3000:3000 -e SESSION_SECRET=… -v milepost-data:/data milepost
# With PostgreSQL and Redis beside it: compose.yaml. Settings: docs/OPERATIONS.md.

FROM node:24-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 and sharp come prebuilt for this platform; the compilers are for when they do not
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY . .
# npm ci generates both Prisma clients and compiles src/ into dist/ (the postinstall hook); the
# development dependencies go afterwards, and dist/ stays (npm start builds again only without it)
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=file:/data/milepost.db \
    MEDIA_DIR=/data/media \
    MALLOC_ARENA_MAX=2 \
    NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# npm passes SIGTERM on: the server finishes the requests in flight and exits 0
STOPSIGNAL SIGTERM
CMD ["npm", "start", "--", "--no-seed"]
