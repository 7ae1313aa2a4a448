// The questions the local chains dispute (sim/chain/seed.ts) and the Polymarket simulator lists as markets: one world,
// so the dispute -> market join (docs/resolution.md) runs offline. Both sides build every id from the same bytes, the
// way the real contracts do (sources in SOURCES.md, "Disputed markets"):
//   ancillary data  = SDK text + `,initializer:<creator>`        uma-ctf-adapter AncillaryDataLib._appendAncillaryData
//   questionID      = keccak256(ancillary data)                   uma-ctf-adapter UmaCtfAdapter.initialize
//   conditionId     = keccak256(abi.encodePacked(oracle, questionId, uint256(2)))   ConditionalTokens.getConditionId
//   neg-risk        = the adapter's questionID is the NegRiskOperator's requestId (Gamma `negRiskRequestID`); the
//                     market's `questionID` is marketId + index and its oracle is the NegRiskAdapter (NegRiskIdLib)
import {
  type Address,
  type Hex,
  concatHex,
  encodeAbiParameters,
  encodePacked,
  getAddress,
  getCreate2Address,
  keccak256,
  pad,
  stringToHex,
  toHex,
} from "viem";

/** Polymarket's UMA CTF adapters (real addresses; on the local chain they are just requester values). */
export const UMA_CTF_ADAPTER_V2: Address = "0x6A9D222616C90FcA5754cd1333cFD9b7fb6a4F74";
export const UMA_CTF_ADAPTER_V3_1: Address = "0x157Ce2d672854c848c9b79C49a8Cc6cc89176a49";
/** NegRiskUmaCtfAdapter: its `ctf` is the NegRiskOperator (neg-risk-ctf-adapter `addresses.json`, `Integration.t.sol`). */
export const NEG_RISK_UMA_CTF_ADAPTER: Address = "0x2F5e3684cb1F318ec51b00Edba38d79Ac2c0aA9d";
const NEG_RISK_OPERATOR: Address = "0x71523d0f655B41E805Cec45b17163f528B59B820";
const NEG_RISK_ADAPTER: Address = "0xd91E80cF2E7be2e162c6513ceD06f1dD0dA35296";
/** The market creator the adapter records as `initializer` (lower-case hex, no 0x). */
const INITIALIZER = "91430cad2d3975766499717fa0d66a78d814e5c5";

/** Polymarket's ancillary text as its SDK builds it (uma-ctf-adapter-sdk createFormattedAncillaryData) + initializer. */
export function polymarketAncillary(title: string, description: string | null): Hex {
  const titleHex = title.startsWith("0x") ? (title as Hex) : stringToHex(title);
  const rest =
    `,${description === null ? "" : ` description: ${description}`} res_data: p1: 0, p2: 1, p3: 0.5. ` +
    "Where p1 corresponds to No, p2 to Yes, p3 to unknown/50-50. Updates made by the question creator via the bulletin " +
    `board at 0x2F5e3684cb1F318ec51b00Edba38d79Ac2c0aA9d should be considered.,initializer:${INITIALIZER}`;
  return concatHex([stringToHex("q: title: "), titleHex, stringToHex(rest)]);
}

const descr = (s: string) =>
  `${s} This market will resolve to "Yes" if so, and "No" otherwise. The primary resolution source is official information.`;

export interface DisputedQuestion {
  /** The seed's key (Q1…Q7). */
  key: string;
  /** The title as a market shows it (invalid UTF-8 decoded to U+FFFD). */
  title: string;
  /** The title's exact bytes when they are not valid UTF-8. */
  titleBytes?: Hex;
  description: string | null;
  adapter: Address;
  /** Neg-risk questions are one market of a multi-market event (5-15 markets); `siblings` are its other questions. */
  negRisk: { eventTitle: string; siblings: string[]; slot: number } | null;
  /** The market resolved and Gamma lists it only when asked for closed markets; `winner` is the outcome index. */
  closed: { winner: 0 | 1 } | null;
  category: string;
  /** End date (ms). */
  endMs: number;
}

/** Every Polymarket question the local chains dispute, in the order the seed disputes them. */
export const DISPUTED_QUESTIONS: readonly DisputedQuestion[] = [
  {
    key: "Q6",
    title: "Will the Fed cut rates at its June 2026 meeting?",
    description: descr("The FOMC announces its decision on June 17, 2026."),
    adapter: NEG_RISK_UMA_CTF_ADAPTER,
    negRisk: {
      eventTitle: "Fed decision in June 2026?",
      siblings: [
        "Will the Fed hold rates at its June 2026 meeting?",
        "Will the Fed hike rates by 25 bps at its June 2026 meeting?",
        "Will the Fed hike rates by 50+ bps at its June 2026 meeting?",
        "Will the June 2026 FOMC meeting be postponed?",
      ],
      slot: 0,
    },
    closed: null,
    category: "economy",
    endMs: Date.UTC(2026, 5, 17, 18),
  },
  {
    key: "Q1",
    title: 'Will "Team A" beat Team B, C, or D in the final?',
    description: descr('Commas, "quotes", and: colons.'),
    adapter: UMA_CTF_ADAPTER_V2,
    negRisk: null,
    closed: { winner: 0 },
    category: "sports",
    endMs: Date.UTC(2026, 4, 26, 20),
  },
  {
    key: "Q2",
    title: "Will Café \uFFFD\uFFFD open in Lyon by July?",
    titleBytes: concatHex([stringToHex("Will Café "), "0xfffe", stringToHex(" open in Lyon by July?")]),
    description: descr("Invalid UTF-8 bytes in the title."),
    adapter: UMA_CTF_ADAPTER_V3_1,
    negRisk: null,
    closed: null,
    category: "business",
    endMs: Date.UTC(2026, 6, 1),
  },
  {
    key: "Q3",
    title: "Will BTC close above $150,000 on June 30?",
    description: descr("Per Binance BTC/USDT."),
    adapter: NEG_RISK_UMA_CTF_ADAPTER,
    negRisk: {
      eventTitle: "Bitcoin price on June 30?",
      siblings: [
        "Will BTC close below $80,000 on June 30?",
        "Will BTC close between $80,000 and $100,000 on June 30?",
        "Will BTC close between $100,000 and $125,000 on June 30?",
        "Will BTC close between $125,000 and $150,000 on June 30?",
      ],
      slot: 4,
    },
    closed: null,
    category: "crypto",
    endMs: Date.UTC(2026, 5, 30, 23, 59),
  },
  {
    key: "Q4",
    title: "Will Lyon's metro line E open before 2030?",
    description: descr("Per SYTRAL."),
    adapter: UMA_CTF_ADAPTER_V3_1,
    negRisk: null,
    closed: null,
    category: "business",
    endMs: Date.UTC(2029, 11, 31),
  },
  {
    key: "Q5",
    title: "Will it snow in Paris in July 2026?",
    description: descr("Per Météo-France."),
    adapter: UMA_CTF_ADAPTER_V2,
    negRisk: null,
    closed: null,
    category: "weather",
    endMs: Date.UTC(2026, 6, 31, 23, 59),
  },
  {
    key: "Q7",
    title: "Will it rain in Lyon on June 1?",
    description: null,
    adapter: UMA_CTF_ADAPTER_V3_1,
    negRisk: null,
    closed: null,
    category: "weather",
    endMs: Date.UTC(2026, 5, 1, 23, 59),
  },
];

export const disputedQuestion = (key: string): DisputedQuestion => {
  const found = DISPUTED_QUESTIONS.find((q) => q.key === key);
  if (!found) throw new Error(`no disputed question ${key}`);
  return found;
};

export function ancillaryOf(question: Pick<DisputedQuestion, "title" | "titleBytes" | "description">): Hex {
  return polymarketAncillary(question.titleBytes ?? question.title, question.description);
}

const conditionId = (oracle: Address, questionId: Hex) =>
  keccak256(encodePacked(["address", "bytes32", "uint256"], [oracle, questionId, 2n]));

/** NegRiskIdLib.getMarketId(oracle, feeBips, metadata): keccak256(abi.encode(…)) with its last byte zeroed. */
function negRiskMarketId(metadata: string): Hex {
  const hash = keccak256(
    encodeAbiParameters([{ type: "address" }, { type: "uint256" }, { type: "bytes" }], [NEG_RISK_OPERATOR, 0n, stringToHex(metadata)]),
  );
  return pad(toHex((BigInt(hash) >> 8n) << 8n), { size: 32 });
}

export interface MarketIds {
  /** Gamma `questionID`. */
  questionID: Hex;
  /** Gamma `negRiskRequestID` ("" for a standard market). */
  negRiskRequestID: Hex | "";
  conditionId: Hex;
}

/** A standard market's ids: its questionID is the adapter's, its condition's oracle the adapter. */
export function standardMarketIds(adapter: Address, ancillary: Hex): MarketIds {
  const questionID = keccak256(ancillary);
  return { questionID, negRiskRequestID: "", conditionId: conditionId(adapter, questionID) };
}

/** One market of a neg-risk event: the operator prepared question `slot` for the adapter's request (its questionID). */
export function negRiskMarketIds(eventTitle: string, slot: number, ancillary: Hex): MarketIds & { negRiskMarketID: Hex } {
  const negRiskMarketID = negRiskMarketId(eventTitle);
  const questionID = pad(toHex(BigInt(negRiskMarketID) + BigInt(slot)), { size: 32 });
  return { negRiskMarketID, questionID, negRiskRequestID: keccak256(ancillary), conditionId: conditionId(NEG_RISK_ADAPTER, questionID) };
}

/** The questions of a neg-risk event in slot order: the disputed one at its slot, the siblings around it. */
export function negRiskQuestions(question: DisputedQuestion): string[] {
  if (!question.negRisk) return [question.title];
  const titles = [...question.negRisk.siblings];
  titles.splice(question.negRisk.slot, 0, question.title);
  return titles;
}

// ---- the UMA voters' Polymarket wallets ----
// Polymarket users trade from CREATE2 wallets of their owner's address (ctf-exchange PolyFactoryHelper.sol):
//   proxy wallet: ProxyWalletFactory 0xaB45…4052, salt keccak256(abi.encodePacked(owner))   (proxy-factories README,
//                 ProxyWalletFactory.makeWallet; init-code hash from builder-relayer-client src/constants/index.ts)
//   Safe:         SafeProxyFactory 0xaacF…541b, salt keccak256(abi.encode(owner))          (SafeProxyFactory.getSalt)
const PROXY_WALLET_FACTORY: Address = "0xaB45c5A4B0c941a2F231C04C3f49182e1A254052";
const PROXY_WALLET_INIT_CODE_HASH: Hex = "0xd21df8dc65880a8606f09fe0ce3df9b8869287ab0b058be05aa9e8af6330a00b";
const SAFE_FACTORY: Address = "0xaacFeEa03eb1561C4e67d661e40682Bd20E3541b";
const SAFE_INIT_CODE_HASH: Hex = "0x2bce2127ff07fb632d16c8347c4ebf501f4841168bed00d9e6ef715ddb6fcecf";

/** The seed's staker N (sim/chain/seed.ts `addressOf("staker-N")`). */
export const stakerAddress = (n: number): Address => getAddress(`0x${keccak256(stringToHex(`staker-${n}`)).slice(-40)}`);

export interface VoterWallet {
  staker: Address;
  wallet: Address;
  kind: "proxy" | "safe" | "same_address";
  /** Keys of the disputed questions whose market this wallet holds, on `outcome` with `shares`. */
  holds: string[];
  outcome: 0 | 1;
  shares: number;
}

/** Three stakers who vote on the seeded disputes hold their markets: through a proxy wallet, a Safe, their own address. */
export const VOTER_WALLETS: readonly VoterWallet[] = [
  {
    staker: stakerAddress(1),
    wallet: getCreate2Address({
      from: PROXY_WALLET_FACTORY,
      salt: keccak256(encodePacked(["address"], [stakerAddress(1)])),
      bytecodeHash: PROXY_WALLET_INIT_CODE_HASH,
    }),
    kind: "proxy",
    holds: ["Q1", "Q2", "Q3", "Q6"],
    outcome: 0,
    shares: 60_000,
  },
  {
    staker: stakerAddress(2),
    wallet: getCreate2Address({
      from: SAFE_FACTORY,
      salt: keccak256(encodeAbiParameters([{ type: "address" }], [stakerAddress(2)])),
      bytecodeHash: SAFE_INIT_CODE_HASH,
    }),
    kind: "safe",
    holds: ["Q1", "Q2", "Q6"],
    outcome: 1,
    shares: 40_000,
  },
  { staker: stakerAddress(3), wallet: stakerAddress(3), kind: "same_address", holds: ["Q1", "Q3"], outcome: 0, shares: 25_000 },
];
