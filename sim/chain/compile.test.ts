// The committed compiled contracts (sim/chain/compiled.json) must match the .sol sources and the installed solc:
// this fails `npm test` with the command that rebuilds them.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMPILED_FILE, compiledStaleness, REGENERATE_COMMAND } from "./compile";

describe("committed compiled contracts", () => {
  it("match the Solidity sources and the compiler version", () => {
    expect(compiledStaleness()).toBeNull();
  });

  it("carry every contract the local chains deploy, with bytecode", () => {
    const { contracts } = JSON.parse(readFileSync(COMPILED_FILE, "utf8")) as {
      contracts: Record<string, { bytecode: string; abi: unknown[] }>;
    };
    for (const name of ["MockVotingV2", "MockOptimisticOracleV2", "MockOracleChildTunnel", "Multicall3"]) {
      expect(contracts[name]?.bytecode, name).toMatch(/^0x[0-9a-f]{100,}$/);
      expect(contracts[name]?.abi.length, name).toBeGreaterThan(0);
    }
  });

  it("an output built from other sources is reported as stale, naming the command that rebuilds it", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "compiled-"));
    const file = path.join(dir, "compiled.json");
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(COMPILED_FILE, "utf8")), digest: "0".repeat(64) }));
    expect(compiledStaleness(file)).toContain(`Run \`${REGENERATE_COMMAND}\``);
    expect(compiledStaleness(path.join(dir, "absent.json"))).toContain(REGENERATE_COMMAND);
    rmSync(dir, { recursive: true, force: true });
  });
});
