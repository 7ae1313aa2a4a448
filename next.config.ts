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
  // Let the proxy see Next's router headers (RSC, Next-Router-Prefetch). Without this Next strips them before the proxy
  // runs, every link prefetch counted as a page view, and a visitor of the oracle page (one prefetch per row) ran out
  // of their per-address page budget in two clicks (proxy.ts, SECURITY.md).
  skipProxyUrlNormalize: true,
  // Type checking runs as its own step (`npm run typecheck`, part of CI), so a build is not blocked twice.
  typescript: { ignoreBuildErrors: true },
  typedRoutes: false,
  experimental: {
    // Next buffers a request body for the proxy up to this size; the gateway refuses anything over MAX_BODY_BYTES
    // (16 KB by default, 1 MB at most), so there is no reason to hold more in memory.
    proxyClientMaxBodySize: 1024 * 1024 + 1,
  },
  // Static files skip the proxy (proxy.ts sets these on everything else).
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
    ];
  },
};

export default nextConfig;
