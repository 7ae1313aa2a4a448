import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.dirname(fileURLToPath(import.meta.url)) } },
  test: {
    environment: "node",
    // Tests point the app at an in-memory embedded database and a throwaway data dir unless they say otherwise.
    env: { PGLITE_DIR: "memory://", DATA_DIR: ".data/test", NEXT_TELEMETRY_DISABLED: "1", CHECKPOINT_DISABLE: "1" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts", "lib/**/*.test.ts", "sim/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/helpers/build-once.ts"],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // Each file starts its own server(s); two at a time is what 2 cores take.
          maxWorkers: 2,
        },
      },
    ],
  },
});
