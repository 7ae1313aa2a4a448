// The app's ABI and the local chain's contracts against the real deployments' selectors and topics
// (sim/chain/reference/SELECTORS.tsv, computed from UMA's published ABIs).
import { readFileSync } from "node:fs";
import path from "node:path";
import { type AbiEvent, type AbiFunction, toEventSelector, toFunctionSelector } from "viem";
import { describe, expect, it } from "vitest";
import {
  negRiskOperatorAbi,
  optimisticOracleV2Abi,
  oracleChildTunnelAbi,
  umaCtfAdapterAbi,
  umaSportsOracleAbi,
  votingV2Abi,
} from "@/lib/oracle/abi";
import { compileContracts } from "@/sim/chain/compile";

const TSV = readFileSync(path.resolve(__dirname, "../../../sim/chain/reference/SELECTORS.tsv"), "utf8");
const real = new Map<string, string>(); // "Contract:kind:signature" -> selector/topic
for (const line of TSV.trim().split("\n")) {
  const [contract, kind, signature, value] = line.split("\t");
  real.set(`${contract}:${kind}:${signature}`, value.split("=")[1]);
}

const signatureOf = (item: AbiFunction | AbiEvent) =>
  `${item.name}(${item.inputs.map((i) => (i.type.startsWith("tuple") ? `(${(i as unknown as { components: { type: string }[] }).components.map((c) => c.type).join(",")})${i.type.slice(5)}` : i.type)).join(",")})`;
const selectorOf = (item: AbiFunction | AbiEvent) => (item.type === "event" ? toEventSelector(item) : toFunctionSelector(item));

const APP_ABIS = [
  ["VotingV2", votingV2Abi, "MockVotingV2"],
  ["OptimisticOracleV2", optimisticOracleV2Abi, "MockOptimisticOracleV2"],
  ["OracleChildTunnel", oracleChildTunnelAbi, "MockOracleChildTunnel"],
] as const;

describe("ABI selectors", () => {
  const artifacts = compileContracts();

  it.each(APP_ABIS)("every %s item the app uses has the real selector or topic", (contract, abi) => {
    for (const item of abi as readonly (AbiFunction | AbiEvent)[]) {
      const key = `${contract}:${item.type}:${signatureOf(item)}`;
      expect(real.get(key), key).toBeDefined();
      expect(selectorOf(item), key).toBe(real.get(key));
    }
  });

  it.each(APP_ABIS)("the local %s exposes every item the app uses, with the same selector or topic", (_contract, abi, mock) => {
    const mockItems = (artifacts[mock].abi as (AbiFunction | AbiEvent)[]).filter((i) => i.type === "function" || i.type === "event");
    const mockSelectors = new Set(mockItems.map(selectorOf));
    for (const item of abi as readonly (AbiFunction | AbiEvent)[])
      expect(mockSelectors.has(selectorOf(item)), signatureOf(item)).toBe(true);
  });

  it.each(APP_ABIS)("the local %s adds nothing beyond the real ABI except seed* helpers", (contract, _abi, mock) => {
    // Real entry points that are not in SELECTORS.tsv (it lists UMA's published read ABI): the tunnel's requestPrice
    // and hasPrice the OOv2 calls, the OO's request calls an adapter makes, VotingV2's landing-round view. Each is
    // checked against the contract's source in sim/chain/SOURCES.md.
    const allowed = new Set([
      "requestPrice(bytes32,uint256,bytes)",
      "hasPrice(bytes32,uint256,bytes)",
      "requestPrice(bytes32,uint256,bytes,address,uint256)",
      "setEventBased(bytes32,uint256,bytes)",
      "setCallbacks(bytes32,uint256,bytes,bool,bool,bool)",
      "settleAndGetPrice(bytes32,uint256,bytes)",
      "getRoundIdToVoteOnRequest(uint32)",
    ]);
    const realValues = new Set([...real].filter(([k]) => k.startsWith(`${contract}:`)).map(([, v]) => v));
    for (const item of (artifacts[mock].abi as (AbiFunction | AbiEvent)[]).filter((i) => i.type === "function" || i.type === "event")) {
      if (item.name.startsWith("seed") || allowed.has(signatureOf(item))) continue;
      expect(realValues.has(selectorOf(item)), `${mock}.${signatureOf(item)}`).toBe(true);
    }
  });

  it.each([
    ["MockUmaCtfAdapter", umaCtfAdapterAbi],
    ["MockNegRiskOperator", negRiskOperatorAbi],
    ["MockUmaSportsOracle", umaSportsOracleAbi],
  ] as const)("the local %s emits every event of it the app scans, with the same topic", (mock, abi) => {
    const topics = new Set((artifacts[mock].abi as AbiEvent[]).filter((i) => i.type === "event").map((i) => toEventSelector(i)));
    const events = (abi as readonly (AbiEvent | AbiFunction)[]).filter((i): i is AbiEvent => i.type === "event");
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(topics.has(toEventSelector(event)), signatureOf(event)).toBe(true);
  });

  it("the adapter's events the app scans have the topics of Polymarket's published ABI where it lists them", () => {
    // SELECTORS.tsv's UmaCtfAdapter rows come from the v4 ABI; the v2 / v3.1 event (QuestionEmergencyResolved) and
    // QuestionUnflagged / QuestionUnpaused are not listed there and are checked against their source by signature.
    for (const event of umaCtfAdapterAbi) {
      const known = real.get(`UmaCtfAdapter:event:${signatureOf(event)}`);
      if (known) expect(toEventSelector(event)).toBe(known);
    }
    expect([...real.keys()].filter((k) => k.startsWith("UmaCtfAdapter:event:")).length).toBeGreaterThan(3);
  });

  it("Multicall3 has the canonical aggregate3 selector viem calls", () => {
    const fn = (artifacts.Multicall3.abi as AbiFunction[]).find((i) => i.name === "aggregate3")!;
    expect(toFunctionSelector(fn)).toBe("0x82ad56cb");
  });
});
