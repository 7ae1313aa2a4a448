// Browser tests against the demo stack (simulator + local chains + production server + sampler loop), in Debian's
// Chromium: never `playwright install`, never a download. CHROMIUM_PATH overrides the browser, E2E_PORT the port.
import { defineConfig } from "@playwright/test";
import { E2E_DATA_DIR, E2E_PORT, E2E_URL } from "./tests/e2e/stack";

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "test-results/playwright",
  // One shared stack, two cores shared with everything else: one worker, tests in file order.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 20_000 },
  reporter: [["list"]],
  use: {
    baseURL: E2E_URL,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium", viewport: { width: 1280, height: 900 } } }],
  webServer: {
    // A fresh data directory per run: the first sampler pass, the dashboard key and the secrets are all new.
    command: `rm -rf "${E2E_DATA_DIR}" && npx tsx scripts/demo.ts`,
    cwd: __dirname,
    url: `${E2E_URL}/api/health`,
    // NEXT_DIST_DIR: reuse the integration tests' build (same sources → no second build in CI).
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: E2E_DATA_DIR,
      SAMPLER_INTERVAL_S: "15",
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_DIST_DIR: ".next-test",
    },
    // The demo builds the app first when sources changed (minutes on two cores).
    timeout: 15 * 60_000,
    reuseExistingServer: false,
    stdout: process.env.E2E_SERVER_LOG ? "pipe" : "ignore",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
  },
});
