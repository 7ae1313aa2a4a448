#!/usr/bin/env bash
# The whole suite: format check, lint, type check, unit tests, integration tests against the real server, then the
# browser tests when a Chromium is installed (CI installs Debian's; set REQUIRE_E2E=1 to make its absence an error).
# Each phase's wall time is printed at the end, pass or fail (docs/testing.md: what runs where, and the budget).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1 CHECKPOINT_DISABLE=1 UPSTASH_DISABLE_TELEMETRY=1

PHASE_TIMES=()
CURRENT_PHASE=""
PHASE_STARTED=0
SUITE_STARTED=$(date +%s)
# Each Vitest phase also writes a JSON report here; a failed run ends by naming its failed tests (scripts/failed-tests.mjs).
REPORT_DIR=$(mktemp -d)
begin() {
  end_phase
  CURRENT_PHASE="$1"
  PHASE_STARTED=$(date +%s)
  echo "== $1"
}
end_phase() {
  if [ -n "$CURRENT_PHASE" ]; then PHASE_TIMES+=("$(printf '%6ss  %s' $(($(date +%s) - PHASE_STARTED)) "$CURRENT_PHASE")"); fi
  CURRENT_PHASE=""
}
kill_tree() {
  local child
  for child in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}
summary() {
  local status=$?
  local failed="$CURRENT_PHASE"
  # A phase that failed leaves no background work behind (the production build made beside the unit tests).
  if [ -n "${BUILD_PID:-}" ] && kill -0 "$BUILD_PID" 2>/dev/null; then kill_tree "$BUILD_PID"; fi
  end_phase
  echo
  echo "== phase times (load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a))"
  local line
  for line in "${PHASE_TIMES[@]}"; do echo "$line"; done
  printf '%6ss  total\n' $(($(date +%s) - SUITE_STARTED))
  if [ "$status" -ne 0 ]; then node scripts/failed-tests.mjs "$REPORT_DIR"/*.json || true; fi
  rm -rf "$REPORT_DIR"
  if [ "$status" -ne 0 ] && [ -n "$failed" ]; then echo "FAILED in: $failed"; fi
}
trap summary EXIT

# The static checks are independent programs, each mostly on one core. On the 2-core machine kind they run on two
# lanes: ESLint, the longest (its type-aware rules build the whole program: about 65 s alone), on one; the type check,
# Prettier and the audit one after another on the other (about 47 s together). All four at once shared two cores
# three ways and made ESLint the phase's tail (116 s of a 121 s phase measured). Each prints its own output and time
# when all have finished.
begin "static checks: lint beside types, format and audit"
# The typed client the integration suite calls every operation through is generated from the current contracts,
# before the checks that read it.
npx tsx scripts/openapi-types.ts
CHECK_DIR=$(mktemp -d)
CHECK_NAMES=("lint" "type check" "format check" "audit (npm audit --omit=dev; accepted advisories are listed in scripts/audit.mjs)")
# `check N COMMAND...` runs check N (named above) and records its exit code and time; a lane is a background group.
check() {
  local n=$1 started
  shift
  started=$(date +%s)
  set +e
  "$@" >"$CHECK_DIR/$n.log" 2>&1
  echo "$? $(($(date +%s) - started))" >"$CHECK_DIR/$n.rc"
  set -e
}
check 0 npx eslint . --max-warnings 0 &
{
  check 1 npx tsc --noEmit -p .
  check 2 npx prettier --check . --log-level warn
  check 3 node scripts/audit.mjs
} &
wait
CHECKS_FAILED=()
for n in "${!CHECK_NAMES[@]}"; do
  name=${CHECK_NAMES[$n]}
  read -r rc took <"$CHECK_DIR/$n.rc"
  echo "-- $name: exit $rc, ${took}s"
  cat "$CHECK_DIR/$n.log"
  PHASE_TIMES+=("$(printf '%6ss    %s' "$took" "$name")")
  if [ "$rc" -ne 0 ]; then CHECKS_FAILED+=("$name"); fi
done
rm -rf "$CHECK_DIR"
if [ ${#CHECKS_FAILED[@]} -gt 0 ]; then
  echo "failed: ${CHECKS_FAILED[*]}" >&2
  exit 1
fi
begin "no focused tests"
# A committed .only would silently skip every other test.
if grep -rnE '\b(describe|it|test|suite)(\.(concurrent|sequential|skipIf\([^)]*\)|runIf\([^)]*\)))*\.only\b' tests lib sim --include='*.ts' --include='*.tsx'; then
  echo "focused tests (.only) found above" >&2
  exit 1
fi

# Each suite runs once per commit, and CI spreads the two supported Node lines across them (package.json engines):
# - unit: on the machine's Node (20, the oldest line), with files and the tests within each file in a shuffled order
#   to flush out tests that depend on each other's order. The seed comes from the commit under test, so every commit
#   gets a new order and a failure replays exactly with the printed seed
#   (`npx vitest run --project unit --sequence.shuffle --sequence.seed=N`); outside git it is random.
# - integration: in CI on Node 24 (the current LTS line): every server these tests start runs on it
#   (process.execPath). The npm registry's `node` package ships the binary, so this needs no other download.
# - browser: the demo stack (server, sampler loop, simulator) on the machine's Node, so a production server is
#   exercised on both lines every run.
# Running unit and integration on both lines doubled the wall time (31.8 min measured) for little: the unit suite is
# pure logic over the same V8 features, and the server paths are covered on each line once.
reports() { echo "--reporter=default --reporter=json --outputFile.json=$REPORT_DIR/$1.json"; }
node24() { npx -y -p node@24 -c "node -v && node node_modules/vitest/vitest.mjs $*"; }

# The integration phase's production build (tests/helpers/build-once.ts) is made beside the unit phase, whose files
# leave a core idle much of the time (imports, waits on local servers); the integration setup then finds it current
# (or waits on its lock). In CI the Node 24 package is fetched beside it too.
BUILD_DIR=$(mktemp -d)
(
  started=$(date +%s)
  set +e
  npx tsx -e 'require("./tests/helpers/build-once.ts").ensureTestBuild()' >"$BUILD_DIR/log" 2>&1
  rc=$?
  if [ "$rc" -eq 0 ] && [ "${CI:-}" = "true" ]; then npx -y -p node@24 -c "node -v" >>"$BUILD_DIR/log" 2>&1 || rc=$?; fi
  echo "$rc $(($(date +%s) - started))" >"$BUILD_DIR/rc"
) &
BUILD_PID=$!
await_build() {
  wait "$BUILD_PID" || true
  local rc took
  read -r rc took <"$BUILD_DIR/rc"
  echo "-- production build for the integration tests (made beside the unit tests): exit $rc, ${took}s"
  cat "$BUILD_DIR/log"
  PHASE_TIMES+=("$(printf '%6ss    %s' "$took" "production build, beside the unit tests")")
  rm -rf "$BUILD_DIR"
  if [ "$rc" -ne 0 ]; then return 1; fi
}
if [ "${CI:-}" = "true" ]; then
  head=$(git rev-parse HEAD 2>/dev/null || true)
  if [ -n "$head" ]; then seed=$((16#${head:0:7})); else seed=$((RANDOM * 32768 + RANDOM)); fi
  begin "unit tests, shuffled ($(node -v), --sequence.seed=$seed)"
  npx vitest run --project unit --sequence.shuffle --sequence.seed="$seed" $(reports unit)
  end_phase
  await_build
  begin "integration tests (Node 24)"
  node24 run --project integration $(reports integration)
else
  begin "unit tests"
  npx vitest run --project unit $(reports unit)
  end_phase
  await_build
  begin "integration tests"
  npx vitest run --project integration $(reports integration)
fi
if [ -f playwright.config.ts ]; then
  # CI installs Chromium in the background (.ci/run); wait for that install to end, at most 10 minutes.
  if [ -n "${CHROMIUM_INSTALL_DONE:-}" ]; then
    for _ in $(seq 600); do [ -e "$CHROMIUM_INSTALL_DONE" ] && break; sleep 1; done
  fi
  if command -v "${CHROMIUM_PATH:-chromium}" >/dev/null 2>&1 || [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
    begin "browser tests"
    # The demo stack serves the integration phase's production build (same sources, stamped with their hash), so
    # the suite builds the app once, not twice.
    NEXT_DIST_DIR=.next-test npx playwright test
  elif [ "${REQUIRE_E2E:-0}" = "1" ]; then
    echo "Chromium is required for the browser tests (apt-get install -y chromium)" >&2
    exit 1
  else
    echo "== browser tests skipped: no Chromium (apt-get install -y chromium to run them)"
  fi
fi
end_phase
