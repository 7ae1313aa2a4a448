// Polymarket's contracts on Polygon (chain 137) that the dispute<->market join and the voter<->wallet mapping rest on.
// Every value is cited in docs/resolution.md ("Sources"); the tests recompute the init-code hashes from the
// creation code in Polymarket's own contracts instead of trusting these constants.
import type { Address, Hex } from "viem";

/** UMA CTF adapters whose questions are standard binary markets: conditionId = keccak(adapter, questionID, 2). */
export const STANDARD_UMA_CTF_ADAPTERS: readonly Address[] = [
  "0x6A9D222616C90FcA5754cd1333cFD9b7fb6a4F74", // UmaCtfAdapterV2
  "0x157Ce2d672854c848c9b79C49a8Cc6cc89176a49", // UmaCtfAdapterV3.1
  "0x65070BE91477460D8A7AeEb94ef92fe056C2f2A7", // UmaCtfAdapterV4 (Managed OOv2)
];

/**
 * UMA CTF adapters deployed for neg-risk (multi-outcome) markets: their `ctf` is a NegRiskOperator, so their
 * questionID is the operator's requestId, not the market's question id.
 */
export const NEG_RISK_UMA_CTF_ADAPTERS: readonly Address[] = [
  "0x2F5e3684cb1F318ec51b00Edba38d79Ac2c0aA9d", // NegRiskUmaCtfAdapter
  "0x69c47De9D4D3Dad79590d61b9e05918E03775f24", // NegRiskUmaCtfAdapterV4 (Managed OOv2)
];

/**
 * The first adapter (2021-22) derived its questionID from its own inputs, not from the ancillary data, so its
 * questions join only through its QuestionInitialized event (docs/resolution.md, "What cannot be known").
 */
export const LEGACY_UMA_CTF_ADAPTER: Address = "0xCB1822859cEF82Cd2Eb4E6276C7916e692995130";

/** NegRiskAdapter: the oracle of every neg-risk market's CTF condition. */
export const NEG_RISK_ADAPTER: Address = "0xd91E80cF2E7be2e162c6513ceD06f1dD0dA35296";

/** Polymarket's proxy-wallet factory (wallets of email / Magic users), its clone implementation and init-code hash. */
export const PROXY_WALLET_FACTORY: Address = "0xaB45c5A4B0c941a2F231C04C3f49182e1A254052";
export const PROXY_WALLET_IMPLEMENTATION: Address = "0x44e999d5c2F66Ef0861317f9A4805AC2e90aEB4f";
export const PROXY_WALLET_INIT_CODE_HASH: Hex = "0xd21df8dc65880a8606f09fe0ce3df9b8869287ab0b058be05aa9e8af6330a00b";

/** Polymarket's Gnosis Safe factory (wallets of browser-wallet users), its master copy and init-code hash. */
export const SAFE_FACTORY: Address = "0xaacFeEa03eb1561C4e67d661e40682Bd20E3541b";
export const SAFE_MASTER_COPY: Address = "0xE51abdf814f8854941b9Fe8e3A4F65CAB4e7A4a8";
export const SAFE_INIT_CODE_HASH: Hex = "0x2bce2127ff07fb632d16c8347c4ebf501f4841168bed00d9e6ef715ddb6fcecf";
