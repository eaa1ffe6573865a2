# The simulator as a container image, for people with access to a registry (base image pull + npm ci).
# Offline (no registry), build the same image with `npm run build:image` instead: it assembles a minimal root
# filesystem (node, its shared libraries, the app and its production dependencies) and `docker import`s it as
# stablepay:local. Both images run `bin/stablepay.js start` on 0.0.0.0:4000 and settle on the chains named by
# STABLEPAY_RPC_URL_<chainId>/STABLEPAY_CHAINS_FILE when set (a black-box conformance run sets them).
#
# The repository is npm workspaces (contract, chains, simulator, conformance and the two merchant packages): the
# build stage installs them all and builds dist/ (npm ci runs `prepare`, which needs the dev dependencies: esbuild,
# typescript, redocly), then drops the dev dependencies; the image keeps the built CLI, the files it reads at run
# time and the production dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=build /app /app
ENV NODE_ENV=production STABLEPAY_HOST=0.0.0.0 STABLEPAY_PORT=4000
EXPOSE 4000
ENTRYPOINT ["node", "/app/bin/stablepay.js"]
CMD ["start", "--no-demo-payment"]
