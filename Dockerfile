# svc: one image for every instance. Configuration comes from the environment (README, "Configuration").
FROM node:20-bookworm-slim
WORKDIR /app
# better-sqlite3 compiles when no prebuilt binary matches.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json .npmrc ./
COPY packages/server/package.json packages/server/
COPY packages/client/package.json packages/client/
COPY packages/dashboard/package.json packages/dashboard/
RUN npm ci --no-audit --no-fund
COPY . .
ENV HOST=0.0.0.0 PORT=8700 NODE_ENV=production
EXPOSE 8700
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:8700/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--import", "tsx", "packages/server/src/main.ts"]
