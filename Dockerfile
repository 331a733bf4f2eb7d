# svc: one image for every instance. Configuration comes from the environment (README, "Configuration").
FROM node:20-bookworm-slim
WORKDIR /app
# better-sqlite3 compiles when no prebuilt binary matches.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
# The whole tree first: `npm ci` runs the root `prepare` script, which builds the dashboard and the SDK.
COPY . .
RUN npm ci --no-audit --no-fund
ENV HOST=0.0.0.0 PORT=8700 NODE_ENV=production
EXPOSE 8700
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:8700/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--import", "tsx", "packages/server/src/main.ts"]
