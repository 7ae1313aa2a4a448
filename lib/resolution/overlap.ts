// Which UMA voters hold positions in the market their vote decides. Pure: voters (mainnet addresses with their
// stake) and the market's holders (Polygon wallets per outcome) in, matches out. A holder is tied to a voter only
// through an address equality or a CREATE2 derivation (lib/resolution/wallets.ts); nothing is inferred from
// names, timing or amounts, and a tie that rests on "the same address on two chains is the same owner" is marked
// as such unless the caller knows the voter's address holds no contract code (docs/resolution.md, "Proxy wallets").
import type { Address } from "viem";
import { walletUrl } from "@/lib/upstream/ids";
import { type WalletKind, walletsOf } from "./wallets";

export interface Voter {
  address: Address;
  /** Stake in UMA as a decimal string (the API's unit). */
  stake: string;
  /** What the voter did on this dispute: committed, revealed, or only staked. */
  roles: readonly ("committer" | "revealer" | "staker")[];
  /** Whether the voter's mainnet address has contract code: false = a key-held account, null = not checked. */
  isContract: boolean | null;
}

export interface Holder {
  /** The wallet the Data API reports (`proxyWallet`). */
  wallet: Address;
  outcome: string;
  outcomeIndex: number;
  /** Shares. */
  amount: number;
}

type Certainty = "certain" | "same_address_unverified" | "same_address_contract";

interface VoterPosition {
  wallet: Address;
  /** The wallet's resource in this API (docs/wallets.md). */
  wallet_url: string;
  via: WalletKind;
  outcome: string;
  outcome_index: number;
  shares: number;
  certainty: Certainty;
}

interface VoterOverlap {
  voter: Address;
  stake: string;
  roles: Voter["roles"][number][];
  positions: VoterPosition[];
}

function certaintyOf(voter: Voter): Certainty {
  // A CREATE2 wallet is bound to the Polygon address that owns it; that address is the voter's only when the
  // voter's address is a key (same key, same address on every chain). A contract at one address on two chains
  // need not have one owner.
  if (voter.isContract === false) return "certain";
  if (voter.isContract === true) return "same_address_contract";
  return "same_address_unverified";
}

/** Voters (by stake, largest first) that hold positions in the market, each with the wallets and sides. */
export function votersHoldingPositions(voters: readonly Voter[], holders: readonly Holder[]): VoterOverlap[] {
  const holdingsByWallet = new Map<string, Holder[]>();
  for (const holder of holders) {
    const key = holder.wallet.toLowerCase();
    holdingsByWallet.set(key, [...(holdingsByWallet.get(key) ?? []), holder]);
  }
  const overlaps: VoterOverlap[] = [];
  for (const voter of voters) {
    const positions: VoterPosition[] = [];
    for (const wallet of walletsOf(voter.address)) {
      for (const holding of holdingsByWallet.get(wallet.address.toLowerCase()) ?? []) {
        positions.push({
          wallet: wallet.address,
          wallet_url: walletUrl(wallet.address),
          via: wallet.kind,
          outcome: holding.outcome,
          outcome_index: holding.outcomeIndex,
          shares: holding.amount,
          certainty: certaintyOf(voter),
        });
      }
    }
    if (positions.length) overlaps.push({ voter: voter.address, stake: voter.stake, roles: [...voter.roles], positions });
  }
  return overlaps.sort((a, b) => compareDecimalStrings(b.stake, a.stake));
}

/** Compares non-negative decimal strings (UMA stakes exceed Number's exact range). */
function compareDecimalStrings(a: string, b: string): number {
  const [ai, af = ""] = a.split(".");
  const [bi, bf = ""] = b.split(".");
  const width = Math.max(af.length, bf.length);
  const left = BigInt(ai + af.padEnd(width, "0"));
  const right = BigInt(bi + bf.padEnd(width, "0"));
  return left === right ? 0 : left < right ? -1 : 1;
}
