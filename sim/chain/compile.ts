// The local chain's contracts, compiled from the Solidity sources beside this file. The compiled output is committed
// (sim/chain/compiled.json) with a digest of the sources and the compiler version, so no start and no test pays for
// solc. When a .sol file changes, the digest no longer matches: `npm run chain:compile` rebuilds the file with solc-js
// (the compiler ships inside the npm package: nothing is downloaded), and a unit test (sim/chain/compile.test.ts)
// fails `npm test` until it is committed. A stale file is never used: until it is rebuilt, each process compiles the
// sources itself (cached by digest in the temp dir) and says so.
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
  | "MockVotingV2"
  | "MockOptimisticOracleV2"
  | "MockManagedOptimisticOracleV2"
  | "MockOracleChildTunnel"
  | "MockUmaCtfAdapter"
  | "MockNegRiskOperator"
  | "MockUmaSportsOracle"
  | "Multicall3";

export const CONTRACTS_DIR = path.join(__dirname, "contracts");
export const COMPILED_FILE = path.join(__dirname, "compiled.json");
export const REGENERATE_COMMAND = "npm run chain:compile";
const require_ = createRequire(__filename);

interface CompiledFile {
  /** sha256 of the compiler version and every .sol source (see sourcesDigest). */
  digest: string;
  solc: string;
  contracts: Record<ContractName, Artifact>;
}

function readSources(): Record<string, { content: string }> {
  const sources: Record<string, { content: string }> = {};
  for (const file of readdirSync(CONTRACTS_DIR)
    .filter((f) => f.endsWith(".sol"))
    .sort()) {
    sources[file] = { content: readFileSync(path.join(CONTRACTS_DIR, file), "utf8") };
  }
  return sources;
}

/** The installed solc-js version (its package version is the compiler's), read without loading the compiler. */
function solcVersion(): string {
  return (JSON.parse(readFileSync(require_.resolve("solc/package.json"), "utf8")) as { version: string }).version;
}

/** What the compiled output depends on: the compiler version and the sources (file names and contents). */
export function sourcesDigest(): string {
  return createHash("sha256").update(solcVersion()).update(JSON.stringify(readSources())).digest("hex");
}

/** Why the committed output cannot be used, or null when it matches the sources and the compiler. */
export function compiledStaleness(file = COMPILED_FILE): string | null {
  if (!existsSync(file)) return `sim/chain/compiled.json is missing: run \`${REGENERATE_COMMAND}\` and commit it.`;
  const compiled = JSON.parse(readFileSync(file, "utf8")) as CompiledFile;
  if (compiled.digest === sourcesDigest()) return null;
  return (
    `sim/chain/compiled.json is stale: the contracts in sim/chain/contracts (or the solc version, ${solcVersion()} ` +
    `installed, ${compiled.solc} compiled) changed since it was built. Run \`${REGENERATE_COMMAND}\` and commit sim/chain/compiled.json.`
  );
}

/** Runs solc-js over the sources (seconds): `npm run chain:compile`, or a process whose committed output is stale. */
export function solcCompile(): Record<ContractName, Artifact> {
  const solc = require_("solc") as { compile(input: string): string };
  const input = {
    language: "Solidity",
    sources: readSources(),
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
  return artifacts;
}

/** Rebuilds sim/chain/compiled.json (`npm run chain:compile`). */
export function writeCompiled(): CompiledFile {
  const compiled: CompiledFile = { digest: sourcesDigest(), solc: solcVersion(), contracts: solcCompile() };
  writeFileSync(COMPILED_FILE, `${JSON.stringify(compiled, null, 1)}\n`);
  return compiled;
}

const globalForCompiled = globalThis as unknown as { __predmktChainArtifacts?: Record<ContractName, Artifact> };

/** The contracts' ABIs and bytecode: the committed output, or (when it is stale) a fresh compile, cached by digest. */
export function compileContracts(options: { cacheDir?: string } = {}): Record<ContractName, Artifact> {
  if (globalForCompiled.__predmktChainArtifacts) return globalForCompiled.__predmktChainArtifacts;
  const stale = compiledStaleness();
  if (!stale) {
    globalForCompiled.__predmktChainArtifacts = (JSON.parse(readFileSync(COMPILED_FILE, "utf8")) as CompiledFile).contracts;
    return globalForCompiled.__predmktChainArtifacts;
  }
  console.warn(`[sim/chain] ${stale} Compiling the sources in this process meanwhile.`);
  const cacheDir = options.cacheDir ?? path.join(os.tmpdir(), "predmkt-chain-artifacts");
  const cacheFile = path.join(cacheDir, `${sourcesDigest().slice(0, 16)}.json`);
  if (existsSync(cacheFile)) return JSON.parse(readFileSync(cacheFile, "utf8")) as Record<ContractName, Artifact>;
  const artifacts = solcCompile();
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cacheFile, JSON.stringify(artifacts));
  return artifacts;
}
