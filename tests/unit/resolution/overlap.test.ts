// Voters tied to the market's holders only through address equality or Polymarket's CREATE2 wallets.
import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { type Holder, type Voter, votersHoldingPositions } from "@/lib/resolution/overlap";
import { deriveProxyWallet, deriveSafeWallet } from "@/lib/resolution/wallets";

const alice: Address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const bob: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const carol: Address = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const stranger: Address = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

const voters: Voter[] = [
  { address: alice, stake: "1500.5", roles: ["committer", "revealer"], isContract: false },
  { address: bob, stake: "250000", roles: ["revealer"], isContract: null },
  { address: carol, stake: "99", roles: ["staker"], isContract: true },
];
const holders: Holder[] = [
  { wallet: deriveProxyWallet(alice), outcome: "Yes", outcomeIndex: 0, amount: 1200 },
  { wallet: deriveSafeWallet(bob), outcome: "No", outcomeIndex: 1, amount: 40 },
  { wallet: carol, outcome: "Yes", outcomeIndex: 0, amount: 5 },
  { wallet: stranger, outcome: "No", outcomeIndex: 1, amount: 9_999 },
];

describe("voter/holder overlap", () => {
  it("finds voters' proxy wallets, Safes and same-address holdings, by stake, marking how certain each tie is", () => {
    const overlap = votersHoldingPositions(voters, holders);
    expect(overlap.map((o) => o.voter)).toEqual([bob, alice, carol]);
    expect(overlap[0].positions).toEqual([
      {
        wallet: deriveSafeWallet(bob),
        wallet_url: `/api/predmkt/wallets/${deriveSafeWallet(bob).toLowerCase()}`,
        via: "safe",
        outcome: "No",
        outcome_index: 1,
        shares: 40,
        certainty: "same_address_unverified",
      },
    ]);
    expect(overlap[1].positions).toEqual([
      {
        wallet: deriveProxyWallet(alice),
        wallet_url: `/api/predmkt/wallets/${deriveProxyWallet(alice).toLowerCase()}`,
        via: "proxy",
        outcome: "Yes",
        outcome_index: 0,
        shares: 1200,
        certainty: "certain",
      },
    ]);
    expect(overlap[2].positions[0]).toMatchObject({ via: "same_address", certainty: "same_address_contract" });
  });

  it("ties nobody to a holder whose wallet no voter's address produces", () => {
    const overlap = votersHoldingPositions(voters, [holders[3]]);
    expect(overlap).toEqual([]);
  });
});
