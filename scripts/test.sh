#!/usr/bin/env bash
# The whole suite: type check, unit tests, integration tests against the real server, then the browser tests when a
# Chromium is installed (CI installs Debian's; set REQUIRE_E2E=1 to make its absence an error).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1 CHECKPOINT_DISABLE=1 UPSTASH_DISABLE_TELEMETRY=1

echo "== type check"
npx tsc --noEmit -p .
echo "== unit tests"
npx vitest run --project unit
echo "== integration tests"
npx vitest run --project integration
if [ -f playwright.config.ts ]; then
  if command -v "${CHROMIUM_PATH:-chromium}" >/dev/null 2>&1 || [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
    echo "== browser tests"
    npx playwright test
  elif [ "${REQUIRE_E2E:-0}" = "1" ]; then
    echo "Chromium is required for the browser tests (apt-get install -y chromium)" >&2
    exit 1
  else
    echo "== browser tests skipped: no Chromium (apt-get install -y chromium to run them)"
  fi
fi
