#!/usr/bin/env bash
# The whole suite: format check, lint, type check, unit tests, integration tests against the real server, then the
# browser tests when a Chromium is installed (CI installs Debian's; set REQUIRE_E2E=1 to make its absence an error).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1 CHECKPOINT_DISABLE=1 UPSTASH_DISABLE_TELEMETRY=1

echo "== format check"
npx prettier --check . --log-level warn
echo "== lint"
npx eslint . --max-warnings 0
echo "== type check"
# The typed client the integration suite calls every operation through is generated from the current contracts.
npx tsx scripts/openapi-types.ts
npx tsc --noEmit -p .
echo "== audit (npm audit --omit=dev; accepted advisories are listed in scripts/audit.mjs)" && node scripts/audit.mjs
echo "== no focused tests"
# A committed .only would silently skip every other test.
if grep -rnE '\b(describe|it|test|suite)(\.(concurrent|sequential|skipIf\([^)]*\)|runIf\([^)]*\)))*\.only\b' tests lib sim --include='*.ts' --include='*.tsx'; then
  echo "focused tests (.only) found above" >&2
  exit 1
fi
# CI also runs the suites on the supported LTS line, Node 24, as well as the machine's (package.json engines; README
# "Security"): the npm registry's `node` package ships the binaries, so this needs no other download. Servers the tests
# start use the same binary (process.execPath), and `node` on PATH is Node 24 for the whole command.
node24() { npx -y -p node@24 -c "node -v && node node_modules/vitest/vitest.mjs $*"; }
if [ "${CI:-}" = "true" ]; then
  # CI runs the unit suite twice in shuffled orders (files and the tests within each file) to flush out tests that
  # depend on each other's order: the first run on the machine's Node, the second on Node 24. The seeds come from the
  # commit under test, so every commit gets new orders and a failure replays exactly with the printed seed
  # (`npx vitest run --project unit --sequence.shuffle --sequence.seed=N`); outside git they are random.
  head=$(git rev-parse HEAD 2>/dev/null || true)
  seed() { if [ -n "$head" ]; then echo $((16#${head:$((($1 - 1) * 8)):7})); else echo $((RANDOM * 32768 + RANDOM)); fi; }
  echo "== unit tests, shuffled (run 1, $(node -v), --sequence.seed=$(seed 1))"
  npx vitest run --project unit --sequence.shuffle --sequence.seed="$(seed 1)"
  echo "== unit tests, shuffled (run 2, Node 24, --sequence.seed=$(seed 2))"
  node24 run --project unit --sequence.shuffle --sequence.seed="$(seed 2)"
else
  echo "== unit tests"
  npx vitest run --project unit
fi
echo "== integration tests"
npx vitest run --project integration
if [ "${CI:-}" = "true" ]; then
  echo "== integration tests on Node 24"
  node24 run --project integration
fi
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
