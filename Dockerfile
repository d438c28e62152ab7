# The Lockboard console: Next.js standalone output on a slim Node runtime, run as a non-root user.
#   docker build -t lockboard-console .
#   docker run -p 8080:8080 -e NEXTAUTH_URL=... -e NEXTAUTH_SECRET=... -e LOCKBOARD_BUCKET=... lockboard-console
# See "Deploying the console" in the README for Cloud Run.

FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
# The committed lockfile is complete for every platform (see stack-notes): npm ci installs exactly it.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm run build

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=8080 HOSTNAME=0.0.0.0
WORKDIR /app
# The standalone server carries its own traced node_modules and (copied by npm run build) its static files
COPY --from=build --chown=node:node /app/.next/standalone ./
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "server.js"]
