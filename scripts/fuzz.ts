// `npm run fuzz`: the contract fuzzer (tests/integration/api/contract-fuzzer.ts) for longer than the test suite's
// short run, against the same offline stack (simulator, local chains, production build). FUZZ_RUNS is the number of
// requests per operation (default 200; half valid, half hostile), FUZZ_SEED changes the values. It prints the count
// of requests per operation and per status, runs the abuse cases (FUZZ_HEADS, FUZZ_ABORTS, FUZZ_FLOOD set their
// sizes; tests/integration/api/fuzz-abuse.ts) with their figures and the totals, and fails on any finding.
import { spawnSync } from "node:child_process";

const runs = process.env.FUZZ_RUNS ?? "200";
if (!/^[1-9]\d*$/.test(runs)) {
  console.error(`FUZZ_RUNS must be a positive integer (got '${runs}')`);
  process.exit(2);
}
const result = spawnSync(
  "npx",
  ["vitest", "run", "--project", "integration", "tests/integration/api/contract.test.ts", "-t", "contract fuzzer"],
  { stdio: "inherit", env: { ...process.env, FUZZ_RUNS: runs } },
);
process.exit(result.status ?? 1);
