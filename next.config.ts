import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Integration tests build into their own directory so a rebuild never pulls files from under a running server.
  // (Build configuration, read before the app's env module exists.)
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // WASM Postgres, the Prisma adapters and ioredis must load from node_modules at run time, not be bundled.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "pg",
    "ioredis",
  ],
  poweredByHeader: false,
  // Type checking runs as its own step (`npm run typecheck`, part of CI), so a build is not blocked twice.
  typescript: { ignoreBuildErrors: true },
  typedRoutes: false,
};

export default nextConfig;
