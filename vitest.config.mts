import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { pgliteTemplatePath } from "./tests/helpers/pglite-template";

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    environment: "node",
    // Tests point the app at an in-memory embedded database and a throwaway data dir unless they say otherwise, and
    // every upstream at a closed local port (9, discard): a test that forgets to start the simulator or a local chain
    // fails fast with a refused connection instead of reaching Polymarket or a public RPC.
    env: {
      PGLITE_DIR: "memory://",
      DATA_DIR: ".data/test",
      NEXT_TELEMETRY_DISABLED: "1",
      CHECKPOINT_DISABLE: "1",
      POLYMARKET_GAMMA_URL: "http://127.0.0.1:9",
      POLYMARKET_DATA_URL: "http://127.0.0.1:9",
      POLYMARKET_CLOB_URL: "http://127.0.0.1:9",
      POLYMARKET_CLOB_WS_URL: "ws://127.0.0.1:9",
      POLYMARKET_RTDS_URL: "ws://127.0.0.1:9",
      ETH_RPC_URL: "http://127.0.0.1:9",
      POLYGON_RPC_URL: "http://127.0.0.1:9",
    },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts", "lib/**/*.test.ts", "sim/**/*.test.ts"],
          // Every in-memory database starts from one migrated PGlite made once (docs/testing.md "The embedded
          // database in tests"): initdb and the migrations were seconds of CPU per test file.
          globalSetup: ["tests/helpers/pglite-template.ts"],
          env: { PGLITE_TEMPLATE: pgliteTemplatePath(root) },
          // Files share worker processes (the modules under node_modules load once per worker, not once per file:
          // about half the suite's CPU), and each starts from fresh app modules, environment and singletons
          // (tests/helpers/unit-file-reset.ts; docs/testing.md "One process for many test files").
          isolate: false,
          setupFiles: ["tests/helpers/unit-file-reset.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Vitest's default is one worker fewer than the cores: one on this 2-core machine kind. Two halve the suite's
          // wall time (343 s → 187 s measured).
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          // The production build once, and the migrated embedded database every test server starts from.
          globalSetup: ["tests/helpers/build-once.ts", "tests/helpers/pglite-template.ts"],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // Each file starts its own server(s); two at a time is what 2 cores take.
          maxWorkers: 2,
        },
      },
    ],
  },
});
