# svc: one image for every instance; configuration comes from the environment (docs/configuration.md).
#   docker build -t svc .
#   docker run -p 8700:8700 -v svc-data:/data -e SVC_ADMIN_EMAIL=you@example.com -e SVC_ADMIN_PASSWORD=… svc

# Build: every dependency, then the dashboard, the SDK and the server as JavaScript (`npm ci` runs
# the root `prepare` script), then drop the devDependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles when no prebuilt binary matches.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY . .
# (packages/server/node_modules holds the versions the server needs where the root's differ: made sure to exist for the COPY below.)
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund && mkdir -p packages/server/node_modules

# Run: the built server, its production dependencies and the built dashboard; no compiler, no
# sources, no TypeScript at runtime, not root.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8700 DATABASE_URL=sqlite:/data/svc.db
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages/server/package.json ./packages/server/
COPY --from=build /app/packages/server/node_modules ./packages/server/node_modules
COPY --from=build /app/packages/server/bin ./packages/server/bin
COPY --from=build /app/packages/server/dist ./packages/server/dist
COPY --from=build /app/packages/dashboard/package.json ./packages/dashboard/
COPY --from=build /app/packages/dashboard/dist ./packages/dashboard/dist
COPY --from=build /app/packages/client/package.json ./packages/client/
COPY --from=build /app/packages/client/dist ./packages/client/dist
# The embedded SQLite store lives in /data: mount a volume there (compose.yaml's `single` profile does).
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 8700
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8700)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "packages/server/dist/main.js"]
