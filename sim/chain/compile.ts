// Compiles the local chain's contracts from the Solidity sources beside this file with solc-js (the compiler ships
// inside the npm package: nothing is downloaded). The result is cached by source hash so a second start skips the
// ~2 s compile.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type { Abi, Hex } from "viem";

export interface Artifact {
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
}

export type ContractName =
  "MockVotingV2" | "MockOptimisticOracleV2" | "MockManagedOptimisticOracleV2" | "MockOracleChildTunnel" | "Multicall3";

export const CONTRACTS_DIR = path.join(__dirname, "contracts");
const require_ = createRequire(__filename);

function readSources(): Record<string, { content: string }> {
  const sources: Record<string, { content: string }> = {};
  for (const file of readdirSync(CONTRACTS_DIR)
    .filter((f) => f.endsWith(".sol"))
    .sort()) {
    sources[file] = { content: readFileSync(path.join(CONTRACTS_DIR, file), "utf8") };
  }
  return sources;
}

export function compileContracts(options: { cacheDir?: string } = {}): Record<ContractName, Artifact> {
  const sources = readSources();
  const solc = require_("solc") as { compile(input: string): string; version(): string };
  const hash = createHash("sha256").update(solc.version()).update(JSON.stringify(sources)).digest("hex").slice(0, 16);
  const cacheDir = options.cacheDir ?? path.join(os.tmpdir(), "predmkt-chain-artifacts");
  const cacheFile = path.join(cacheDir, `${hash}.json`);
  if (existsSync(cacheFile)) return JSON.parse(readFileSync(cacheFile, "utf8")) as Record<ContractName, Artifact>;

  const input = {
    language: "Solidity",
    sources,
    settings: {
      // paris: no PUSH0/MCOPY, so the bytecode runs on any node version.
      evmVersion: "paris",
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join("\n")}`);
  const artifacts = {} as Record<ContractName, Artifact>;
  for (const [file, contracts] of Object.entries(output.contracts)) {
    for (const [name, c] of Object.entries(contracts)) {
      if (file !== `${name}.sol`) continue;
      artifacts[name as ContractName] = {
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      };
    }
  }
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cacheFile, JSON.stringify(artifacts));
  return artifacts;
}
