# docs-server for operators: `docker build -t docs-server .`, then see compose.yaml for a whole
# deployment (two replicas, PostgreSQL, MinIO, Caddy). Not built by this repository's tests (no container
# runtime there); test/e2e/container-files.test.ts checks what the image must have.
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary fits.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json .npmrc ./
RUN npm ci --ignore-scripts && npm rebuild better-sqlite3
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
# Git-connected deploys run `git ls-remote` and `git fetch` (over HTTPS: the CA certificates).
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates && rm -rf /var/lib/apt/lists/*
# Every interface: the default, 127.0.0.1, would be unreachable from outside the container.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DOCS_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/schemas ./schemas
COPY --from=build /app/fixtures/templates ./fixtures/templates
COPY --from=build /app/compiler/theme/assets ./compiler/theme/assets
COPY --from=build /app/compiler/components/components.css ./compiler/components/components.css
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
# /ready (the database and the blob store answer), as balancers use; the bare address reaches the API
# whatever DOCS_API_HOST says.
HEALTHCHECK --interval=15s --timeout=5s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# SIGTERM: docs-server closes idle connections, finishes in-flight requests and builds within
# DOCS_SHUTDOWN_GRACE (60 s), then exits 0; give the container longer (compose.yaml: stop_grace_period).
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "dist/bundle/server/main.js"]
CMD ["start"]
