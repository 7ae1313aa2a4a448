// The identifiers that tie an oracle request to a Polymarket market (docs/resolution.md, "The join"):
//   questionID  = keccak256(ancillaryData)       UmaCtfAdapter.initialize, after appending `,initializer:<creator>`
//   conditionId = keccak256(abi.encodePacked(oracle, questionId, uint256(2)))   ConditionalTokens.getConditionId
// The OOv2 events of a Polymarket request carry the adapter's ancillary data byte for byte; the DVM and the bridge
// carry it with UMA's stamps appended, which adapterAncillaryData strips off again.
import { type Address, type Hex, encodePacked, keccak256, stringToHex } from "viem";
import { LEGACY_UMA_CTF_ADAPTER, NEG_RISK_UMA_CTF_ADAPTERS, STANDARD_UMA_CTF_ADAPTERS } from "./addresses";

/** AncillaryDataLib._appendAncillaryData: `<data>,initializer:<creator, 40 lowercase hex, no 0x>`. */
export function appendInitializer(ancillaryData: Hex, initializer: Address): Hex {
  return `${ancillaryData}${stringToHex(`,initializer:${initializer.slice(2).toLowerCase()}`).slice(2)}` as Hex;
}

/** The adapter's questionID of a request whose (initializer-appended) ancillary data this is. */
export function questionIdOf(ancillaryData: Hex): Hex {
  return keccak256(ancillaryData);
}

/** ConditionalTokens.getConditionId(oracle, questionId, outcomeSlotCount). Polymarket's markets have 2 slots. */
export function conditionIdOf(oracle: Address, questionId: Hex, outcomeSlotCount = 2): Hex {
  return keccak256(encodePacked(["address", "bytes32", "uint256"], [oracle, questionId, BigInt(outcomeSlotCount)]));
}

// Lives with the other ancillary-data forms in the oracle layer, which stores each dispute's questionID.
export { adapterAncillaryData } from "@/lib/oracle/ancillary";

type AdapterKind = "standard" | "neg_risk" | "legacy" | "unknown";

const kindByAddress = new Map<string, AdapterKind>([
  ...STANDARD_UMA_CTF_ADAPTERS.map((a) => [a.toLowerCase(), "standard"] as const),
  ...NEG_RISK_UMA_CTF_ADAPTERS.map((a) => [a.toLowerCase(), "neg_risk"] as const),
  [LEGACY_UMA_CTF_ADAPTER.toLowerCase(), "legacy"],
]);

/** Which join rule an OO requester's questions follow; `unknown` for any address not in Polymarket's lists. */
export function adapterKind(requester: Address): AdapterKind {
  return kindByAddress.get(requester.toLowerCase()) ?? "unknown";
}
