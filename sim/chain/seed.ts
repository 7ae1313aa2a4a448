// Deploys the oracle contracts on the two local chains and seeds a small, fully known world: stakers (some
// delegating, one tie, one slashed, one fully unstaking), Polymarket questions disputed on Polygon and bridged to the
// mainnet DVM in UMA's compressed form, reveals across three voting rounds, rolls, resolutions and a settlement.
// Time moves with anvil's evm_setNextBlockTimestamp so rounds and phases are the contract's own, and every figure
// the endpoints should answer is computed here, from what was seeded, into `expected`.
import {
  type Abi,
  type Address,
  type Chain,
  type Hex,
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeEventLog,
  encodeAbiParameters,
  formatUnits,
  getAddress,
  http,
  keccak256,
  parseUnits,
  stringToHex,
} from "viem";
import { mainnet, polygon } from "viem/chains";
import {
  ancillaryOf,
  disputedQuestion,
  NEG_RISK_UMA_CTF_ADAPTER,
  polymarketAncillary,
  UMA_CTF_ADAPTER_V2,
  UMA_CTF_ADAPTER_V3_1,
} from "../polymarket/disputed";
import type { Artifact, ContractName } from "./compile";

export { polymarketAncillary };

export const PHASE_LENGTH = 86_400;
export const ROUND_LENGTH = 2 * PHASE_LENGTH;
/** Round id the seed starts in (2026-05-27); the world ends in round FIRST_ROUND + 4, six hours into its commit phase. */
export const FIRST_ROUND = 10_300;
export const GENESIS_TIMESTAMP = FIRST_ROUND * ROUND_LENGTH + 60;
export const MULTICALL3_ADDRESS: Address = "0xcA11bde05977b3631167028862bE2a173976CA11";
/** Mainnet OracleRootTunnel: the requester of every bridged DVM request. */
export const ROOT_TUNNEL_ADDRESS: Address = "0x9B40E25dDd4518F36c50ce8AEf53Ee527419D55d";
/**
 * Polymarket's UMA CTF adapters on the legacy OOv2, at their real addresses, each running MockUmaCtfAdapter (placed
 * with anvil_setCode): a first dispute of a question they initialized resets it, as UmaCtfAdapter.priceDisputed does.
 */
export const POLYMARKET_ADAPTERS: Address[] = [UMA_CTF_ADAPTER_V2, UMA_CTF_ADAPTER_V3_1, NEG_RISK_UMA_CTF_ADAPTER];
/** UmaCtfAdapter v4 (Polymarket's adapter on the Managed OOv2), also running MockUmaCtfAdapter, on the Managed OOv2. */
export const UMA_CTF_ADAPTER_V4: Address = "0x65070BE91477460D8A7AeEb94ef92fe056C2f2A7";
/** Polymarket's UmaSportsOracle at its real address, running MockUmaSportsOracle on the legacy OOv2. */
export const SPORTS_ORACLE: Address = "0xb21182d0494521Cf45DbbeEbb5A3ACAAb6d22093";
/** The NegRiskAdapter the first operator's conditions name (UMA's monitor: LEGACY_NEG_RISK_ADAPTER). */
export const LEGACY_NEG_RISK_ADAPTER: Address = "0xd91E80cF2E7be2e162c6513ceD06f1dD0dA35296";
const OTHER_REQUESTER: Address = "0x00000000000000000000000000000000DeaDBeef";
const DEV_ACCOUNT: Address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const YES_OR_NO = stringToHex("YES_OR_NO_QUERY", { size: 32 });
const NUMERICAL = stringToHex("NUMERICAL", { size: 32 });
const ONE = 10n ** 18n;

const addressOf = (label: string): Address => getAddress(`0x${keccak256(stringToHex(label)).slice(-40)}`);

export interface ExpectedDispute {
  key: string;
  title: string;
  status: "disputed" | "queued" | "voting" | "dvm_resolved" | "resolved" | "settled";
  vote_phase: "commit" | "reveal" | null;
  roll_count: number;
  requester: Address;
  proposer: Address;
  disputer: Address;
  proposed_price: string;
  /** Its Polygon origin lies before UMA_OOV2_FROM_BLOCK: only the mainnet request and a targeted lookup find it. */
  recovered_from_mainnet: boolean;
  disputed_at: string;
}

export interface ExpectedRound {
  round_id: number;
  starts_at: string;
  ends_at: string;
  requests: number;
  reveal_count: number;
  unique_revealers: number;
  tokens_revealed: string;
}

export interface ExpectedVoter {
  rank: number;
  address: Address;
  stake: string;
  delegate: Address | null;
  pending_delegate: Address | null;
  pending_unstake: string;
  unstake_time: string | null;
  share_of_total_stake: number;
}

export interface SeedExpectation {
  chain_time: string;
  summary: {
    pending_requests: number;
    disputed_requests: number;
    active_round: { round_id: number; phase: "commit" | "reveal"; phase_ends_at: string; round_ends_at: string; requests_to_vote: number };
  };
  disputes: ExpectedDispute[];
  rounds: ExpectedRound[];
  voters: ExpectedVoter[];
  cumulative_stake: string;
  pending_unstakes: { stakers: number; tokens: string };
  /** Blocks on each chain after seeding (log scans cover them in ceil(blocks / ORACLE_LOG_CHUNK_SIZE) ranges). */
  blocks: { ethereum: number; polygon: number };
  /** A round whose reveals sit in more than one block, to be split across log-range chunks. */
  multi_block_round: number;
}

export interface SeedResult {
  addresses: {
    votingV2: Address;
    optimisticOracleV2: Address;
    managedOptimisticOracleV2: Address;
    childTunnel: Address;
    negRiskOperators: Address[];
  };
  fromBlocks: { votingV2: number; optimisticOracleV2: number };
  expected: SeedExpectation;
}

const iso = (t: number | bigint) => new Date(Number(t) * 1000).toISOString();

class ChainDriver {
  readonly public_;
  readonly wallet;
  readonly test;
  private lastTimestamp: number;

  constructor(url: string, chain: Chain, genesis: number) {
    const transport = http(url, { retryCount: 0 });
    this.public_ = createPublicClient({ chain, transport, pollingInterval: 10 });
    this.wallet = createWalletClient({ chain, transport, account: DEV_ACCOUNT });
    this.test = createTestClient({ chain, transport, mode: "anvil" });
    this.lastTimestamp = genesis;
  }

  private async at(timestamp: number): Promise<number> {
    const t = Math.max(timestamp, this.lastTimestamp + 1);
    await this.test.setNextBlockTimestamp({ timestamp: BigInt(t) });
    this.lastTimestamp = t;
    return t;
  }

  async deploy(artifact: Artifact, args: unknown[], timestamp: number): Promise<Address> {
    await this.at(timestamp);
    const hash = await this.wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args, gas: 8_000_000n });
    const receipt = await this.public_.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    if (receipt.status !== "success" || !receipt.contractAddress) throw new Error("deploy failed");
    return receipt.contractAddress;
  }

  async send(address: Address, abi: Abi, functionName: string, args: unknown[], timestamp: number) {
    const t = await this.at(timestamp);
    // Explicit gas: estimation would run before the timestamp above applies and trip phase checks.
    const hash = await this.wallet.writeContract({ address, abi, functionName, args, gas: 3_000_000n });
    const receipt = await this.public_.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    if (receipt.status !== "success") throw new Error(`${functionName} reverted`);
    return { receipt, timestamp: t };
  }

  async mineAt(timestamp: number): Promise<void> {
    await this.at(timestamp);
    await this.test.mine({ blocks: 1 });
  }

  async placeMulticall3(artifact: Artifact): Promise<void> {
    await this.placeCode(MULTICALL3_ADDRESS, artifact);
  }

  /** A contract's runtime code at a fixed address (a real deployment's), without its constructor. */
  async placeCode(address: Address, artifact: Artifact): Promise<void> {
    await this.test.setCode({ address, bytecode: artifact.deployedBytecode });
  }
}

interface Question {
  key: string;
  title: string;
  ancillary: Hex;
  requester: Address;
  proposer: Address;
  disputer: Address;
  proposedPrice: bigint;
  requestTimestamp: number;
  disputedAt: number;
  disputeBlock: bigint;
  /** The DVM request as mainnet sees it (compressed ancillary data), once bridged. */
  dvm?: { identifier: Hex; time: bigint; ancillary: Hex; rollCount: number; lastVotingRound: number };
}

export async function seedChains(
  artifacts: Record<ContractName, Artifact>,
  urls: { ethereum: string; polygon: string },
): Promise<SeedResult> {
  const eth = new ChainDriver(urls.ethereum, mainnet, GENESIS_TIMESTAMP);
  const poly = new ChainDriver(urls.polygon, polygon, GENESIS_TIMESTAMP);
  const K = FIRST_ROUND;
  const roundStart = (r: number) => r * ROUND_LENGTH;
  const V = artifacts.MockVotingV2.abi;
  const OO = artifacts.MockOptimisticOracleV2.abi;
  const T = artifacts.MockOracleChildTunnel.abi;

  // ---- contracts ----
  const voting = await eth.deploy(artifacts.MockVotingV2, [BigInt(PHASE_LENGTH)], roundStart(K) + 100);
  await eth.placeMulticall3(artifacts.Multicall3);
  const tunnel = await poly.deploy(artifacts.MockOracleChildTunnel, [], roundStart(K) + 100);
  const oo = await poly.deploy(artifacts.MockOptimisticOracleV2, [7200n, tunnel], roundStart(K) + 101);
  // The Managed OOv2 (Polymarket's v4 adapters), settled by the dev account as its resolver.
  const managedOo = await poly.deploy(artifacts.MockManagedOptimisticOracleV2, [7200n, tunnel, DEV_ACCOUNT], roundStart(K) + 102);
  await poly.placeMulticall3(artifacts.Multicall3);
  const A = artifacts.MockUmaCtfAdapter.abi;
  for (const [adapter, itsOracle] of [...POLYMARKET_ADAPTERS.map((a) => [a, oo] as const), [UMA_CTF_ADAPTER_V4, managedOo] as const]) {
    await poly.placeCode(adapter, artifacts.MockUmaCtfAdapter);
    await poly.send(adapter, A, "seedInit", [itsOracle], roundStart(K) + 103);
  }
  await poly.placeCode(SPORTS_ORACLE, artifacts.MockUmaSportsOracle);
  await poly.send(SPORTS_ORACLE, artifacts.MockUmaSportsOracle.abi, "seedInit", [oo], roundStart(K) + 103);
  // Both NegRiskOperators: the first on the NegRiskAdapter UMA's monitor calls legacy, the V4 one on another adapter.
  const negRiskOperators = [
    await poly.deploy(artifacts.MockNegRiskOperator, [LEGACY_NEG_RISK_ADAPTER], roundStart(K) + 104),
    await poly.deploy(artifacts.MockNegRiskOperator, [addressOf("neg-risk-adapter-v4")], roundStart(K) + 105),
  ];

  // ---- stakers ----
  const S = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`S${i + 1}`, addressOf(`staker-${i + 1}`)])) as Record<string, Address>;
  const D4 = addressOf("delegate-4");
  const D6 = addressOf("delegate-6");
  const stake = new Map<Address, bigint>();
  const pendingSlash = new Map<Address, bigint>();
  const delegates = new Map<Address, Address>();
  let cumulativeStake = 0n;
  const initial: [string, string][] = [
    ["S1", "3000000"],
    ["S2", "2500000"],
    ["S3", "2500000"],
    ["S4", "1000000"],
    ["S5", "750000.5"],
    ["S6", "500000"],
    ["S7", "250000"],
    ["S8", "100000"],
  ];
  const amounts = initial.map(([, a]) => parseUnits(a, 18));
  await eth.send(voting, V, "seedStakes", [initial.map(([n]) => S[n]), amounts], roundStart(K) + 200);
  initial.forEach(([n], i) => stake.set(S[n], amounts[i]));
  cumulativeStake = amounts.reduce((a, b) => a + b, 0n);
  // A second Staked event for the same voter: the voter list must not count S1 twice.
  const topUp = parseUnits("899999.75", 18);
  await eth.send(voting, V, "seedStakes", [[S.S1], [topUp]], roundStart(K) + 300);
  stake.set(S.S1, stake.get(S.S1)! + topUp);
  cumulativeStake += topUp;
  await eth.send(voting, V, "seedSetDelegate", [S.S4, D4], roundStart(K) + 400);
  await eth.send(voting, V, "seedSetDelegate", [S.S6, D6], roundStart(K) + 401);
  delegates.set(S.S4, D4).set(S.S6, D6);
  // S5 names a delegate that never names S5 back: not in effect (Staker.getVoterFromDelegate), shown as pending.
  const D5 = addressOf("delegate-5");
  await eth.send(voting, V, "seedSetDelegateOneSided", [S.S5, D5], roundStart(K) + 402);
  const pendingDelegates = new Map<Address, Address>([[S.S5, D5]]);
  // S7 unstakes everything: still in the Staked log, no longer a staker.
  const s7 = await eth.send(voting, V, "seedRequestUnstake", [S.S7, stake.get(S.S7)!], roundStart(K) + 500);
  cumulativeStake -= stake.get(S.S7)!;
  stake.set(S.S7, 0n);
  // S8 carries an unapplied slash: voterStakes() says 100000, getVoterStakePostUpdate() says 99000.
  const slash = -parseUnits("1000", 18);
  await eth.send(voting, V, "seedSlash", [S.S8, slash], roundStart(K) + 600);
  pendingSlash.set(S.S8, slash);
  // S8 also unstakes part of it: in cooldown for unstakeCoolDown (7 days), no longer staked.
  const partial = parseUnits("10000", 18);
  const { timestamp: unstakedAt } = await eth.send(voting, V, "seedRequestUnstake", [S.S8, partial], roundStart(K) + 700);
  cumulativeStake -= partial;
  stake.set(S.S8, stake.get(S.S8)! - partial);
  const pendingUnstakes = new Map<Address, { tokens: bigint; at: number }>([
    [S.S7, { tokens: parseUnits("250000", 18), at: s7.timestamp + 7 * 86_400 }],
    [S.S8, { tokens: partial, at: unstakedAt + 7 * 86_400 }],
  ]);

  // ---- Polymarket questions on Polygon, bridged to the DVM ----
  const questions = new Map<string, Question>();
  const requestsToVote = new Map<number, number>();
  const enqueue = (round: number) => requestsToVote.set(round, (requestsToVote.get(round) ?? 0) + 1);

  async function dispute(
    key: string,
    title: string,
    ancillary: Hex,
    requester: Address,
    t: number,
    proposedPrice = ONE,
  ): Promise<Question> {
    const proposer = addressOf(`proposer-${key}`);
    const disputer = addressOf(`disputer-${key}`);
    // A Polymarket question is asked by its adapter (UmaCtfAdapter.initialize: the request's time is the block's), so
    // its first dispute resets it in the dispute's transaction; another requester asks the OO directly.
    const asked = POLYMARKET_ADAPTERS.includes(requester)
      ? await poly.send(requester, A, "seedInitialize", [ancillary, addressOf("usdc"), 5_000_000n], t)
      : await poly.send(oo, OO, "seedRequestPrice", [requester, YES_OR_NO, BigInt(t), ancillary, addressOf("usdc"), 5_000_000n], t);
    const requestTs = BigInt(asked.timestamp);
    await poly.send(oo, OO, "seedProposePrice", [requester, proposer, YES_OR_NO, requestTs, ancillary, proposedPrice], t + 60);
    const { receipt, timestamp } = await poly.send(
      oo,
      OO,
      "seedDisputePrice",
      [requester, disputer, YES_OR_NO, requestTs, ancillary],
      t + 120,
    );
    const q: Question = {
      key,
      title,
      ancillary,
      requester,
      proposer,
      disputer,
      proposedPrice,
      requestTimestamp: Number(requestTs),
      disputedAt: timestamp,
      disputeBlock: receipt.blockNumber,
    };
    questions.set(key, q);
    return q;
  }

  // What OracleRootTunnel does on mainnet once Polygon's checkpoint arrives: VotingV2.requestPrice with the
  // compressed ancillary data. The seed plays the bridge.
  async function bridge(q: Question, t: number): Promise<void> {
    // The tunnel's log sits in the dispute's own transaction (the OOv2 forwards the dispute to its oracle).
    const [log] = await poly.public_.getLogs({ address: tunnel, fromBlock: q.disputeBlock, toBlock: q.disputeBlock });
    const bridged = decodeEventLog({ abi: T, data: log.data, topics: log.topics }) as unknown as {
      args: { identifier: Hex; time: bigint; ancillaryData: Hex; parentRequestId: Hex };
    };
    const compressed = (await poly.public_.readContract({
      address: tunnel,
      abi: T,
      functionName: "compressAncillaryData",
      args: [bridged.args.ancillaryData, oo, q.disputeBlock],
      blockNumber: q.disputeBlock,
    })) as Hex;
    const parentId = keccak256(
      encodeAbiParameters(
        [{ type: "bytes32" }, { type: "uint256" }, { type: "bytes" }],
        [bridged.args.identifier, bridged.args.time, compressed],
      ),
    );
    if (parentId !== bridged.args.parentRequestId) throw new Error("seed: compressed ancillary data does not match parentRequestId");
    await eth.send(voting, V, "seedRequest", [ROOT_TUNNEL_ADDRESS, bridged.args.identifier, bridged.args.time, compressed], t);
    const round = Math.floor(t / ROUND_LENGTH) + 1;
    q.dvm = { identifier: bridged.args.identifier, time: bridged.args.time, ancillary: compressed, rollCount: 0, lastVotingRound: round };
    enqueue(round);
  }

  const dvmArgs = (q: Question) => [q.dvm!.identifier, q.dvm!.time, q.dvm!.ancillary] as const;
  async function roll(q: Question, t: number) {
    await eth.send(voting, V, "seedRoll", [...dvmArgs(q)], t);
    q.dvm!.rollCount += 1;
    q.dvm!.lastVotingRound = Math.floor(t / ROUND_LENGTH);
    enqueue(q.dvm!.lastVotingRound);
  }
  async function resolve(q: Question, price: bigint, t: number) {
    await eth.send(voting, V, "seedResolve", [...dvmArgs(q), price], t);
  }

  // Reveals: one transaction (and block) each, so a round's reveals span several blocks and log-range chunks.
  const reveals = new Map<number, { voter: Address; tokens: bigint }[]>();
  async function reveal(voterKey: string, q: Question, price: bigint, t: number, caller?: Address) {
    const voter = S[voterKey];
    await eth.send(voting, V, "seedReveal", [voter, caller ?? voter, ...dvmArgs(q), price], t);
    const round = Math.floor(t / ROUND_LENGTH);
    const list = reveals.get(round) ?? [];
    list.push({ voter, tokens: stake.get(voter)! });
    reveals.set(round, list);
  }

  // The questions are the markets the Polymarket simulator lists (sim/polymarket/disputed.ts): same bytes, same ids.
  const disputeShared = (key: string, t: number, proposedPrice = ONE) => {
    const q = disputedQuestion(key);
    return dispute(key, q.title, ancillaryOf(q), q.adapter, t, proposedPrice);
  };

  // Round K: Q6's dispute lies before the Polygon scan window (UMA_OOV2_FROM_BLOCK), so its title can only be
  // recovered from the compressed mainnet request through the tunnel's PriceRequestBridged log.
  let B = roundStart(K);
  const q6 = await disputeShared("Q6", B + 1000);
  const polygonFromBlock = Number(q6.disputeBlock) + 1;
  const n1 = await dispute(
    "N1",
    "Not Polymarket",
    stringToHex("q: title: An unrelated OOv2 request, description: another integrator"),
    OTHER_REQUESTER,
    B + 2000,
  );
  const q1 = await disputeShared("Q1", B + 3000);
  await bridge(q6, B + 5000);
  await bridge(n1, B + 5100);
  await bridge(q1, B + 5200);

  // Round K+1: two new disputes; reveals on Q1 and Q6; Q1 and N1 resolve.
  B = roundStart(K + 1);
  // Q2's title has invalid UTF-8 bytes: each decodes to U+FFFD, as TextDecoder does.
  const q2 = await disputeShared("Q2", B + 1000, 0n);
  const q3 = await disputeShared("Q3", B + 2000);
  await bridge(q2, B + 3000);
  await bridge(q3, B + 3100);
  const R1 = B + PHASE_LENGTH;
  await reveal("S1", q1, ONE, R1 + 1000);
  await reveal("S2", q1, ONE, R1 + 1100);
  await reveal("S3", q1, ONE, R1 + 1200);
  await reveal("S4", q1, ONE, R1 + 1300, D4);
  await reveal("S1", q6, 0n, R1 + 1400);
  await reveal("S2", q6, ONE, R1 + 1500);
  await resolve(q1, ONE, R1 + 80_000);
  await resolve(n1, 0n, R1 + 80_100);

  // Round K+2: Q6 rolls; Q1 settles on Polygon; reveals on Q2, Q3, Q6; Q2 resolves.
  B = roundStart(K + 2);
  await roll(q6, B + 100);
  await poly.send(oo, OO, "seedPushDvmPrice", [q1.requester, YES_OR_NO, BigInt(q1.requestTimestamp), q1.ancillary, ONE], B + 200);
  await poly.send(oo, OO, "seedSettle", [q1.requester, YES_OR_NO, BigInt(q1.requestTimestamp), q1.ancillary], B + 300);
  const R2 = B + PHASE_LENGTH;
  await reveal("S1", q2, 0n, R2 + 1000);
  await reveal("S2", q2, 0n, R2 + 1100);
  await reveal("S3", q2, 0n, R2 + 1200);
  await reveal("S5", q2, 0n, R2 + 1300);
  await reveal("S1", q3, ONE, R2 + 1400);
  await reveal("S6", q3, 0n, R2 + 1500, D6);
  await reveal("S2", q6, ONE, R2 + 1600);
  await resolve(q2, 0n, R2 + 80_000);

  // Round K+3: Q3 and Q6 roll; Q2's DVM price reaches Polygon; Q4 disputed; a non-Polymarket DVM request.
  B = roundStart(K + 3);
  await roll(q3, B + 100);
  await roll(q6, B + 101);
  await poly.send(oo, OO, "seedPushDvmPrice", [q2.requester, YES_OR_NO, BigInt(q2.requestTimestamp), q2.ancillary, 0n], B + 200);
  const q4 = await disputeShared("Q4", B + 1000, 0n);
  await bridge(q4, B + 3000);
  await eth.send(
    voting,
    V,
    "seedRequest",
    [DEV_ACCOUNT, NUMERICAL, BigInt(B + 3000), stringToHex("q: What was the average ETH/USD price on 2026-06-01?")],
    B + 3100,
  );
  enqueue(K + 4);
  const R3 = B + PHASE_LENGTH;
  await reveal("S1", q3, ONE, R3 + 1000);
  await reveal("S3", q3, 0n, R3 + 1100);
  await reveal("S2", q6, ONE, R3 + 1200);
  await reveal("S5", q6, 0n, R3 + 1300);

  // Round K+4 (now): Q3 and Q6 roll again; Q5 disputed and bridged (voted next round); Q7 disputed, not bridged.
  B = roundStart(K + 4);
  await roll(q3, B + 100);
  await roll(q6, B + 101);
  const q5 = await disputeShared("Q5", B + 1000);
  await bridge(q5, B + 3000);
  await disputeShared("Q7", B + 5000);
  const now = B + 6 * 3600;
  await eth.mineAt(now);
  await poly.mineAt(now);

  // ---- expectations, from the ledger above ----
  const currentRound = K + 4;
  const statusOf = (q: Question): ExpectedDispute["status"] => {
    if (q.key === "Q1") return "settled";
    if (q.key === "Q2") return "resolved";
    if (q.dvm && q.dvm.lastVotingRound === currentRound) return "voting";
    // VotingV2 RequestStatus.Future: bridged, voted in a later round.
    if (q.dvm && q.dvm.lastVotingRound > currentRound) return "queued";
    return "disputed";
  };
  const disputes: ExpectedDispute[] = [...questions.values()]
    .filter((q) => POLYMARKET_ADAPTERS.includes(q.requester))
    .map((q) => {
      const status = statusOf(q);
      return {
        key: q.key,
        title: q.title,
        status,
        vote_phase: status === "voting" ? ("commit" as const) : null,
        roll_count: q.dvm?.rollCount ?? 0,
        requester: q.requester,
        proposer: q.proposer,
        disputer: q.disputer,
        proposed_price: formatUnits(q.proposedPrice, 18),
        recovered_from_mainnet: q.key === "Q6",
        disputed_at: iso(q.disputedAt),
      };
    })
    .sort((a, b) => b.disputed_at.localeCompare(a.disputed_at));

  const rounds: ExpectedRound[] = [...new Set([...reveals.keys(), currentRound])]
    .sort((a, b) => b - a)
    .map((r) => {
      const list = reveals.get(r) ?? [];
      return {
        round_id: r,
        starts_at: iso(roundStart(r)),
        ends_at: iso(roundStart(r + 1)),
        requests: requestsToVote.get(r) ?? 0,
        reveal_count: list.length,
        unique_revealers: new Set(list.map((x) => x.voter)).size,
        tokens_revealed: formatUnits(
          list.reduce((a, x) => a + x.tokens, 0n),
          18,
        ),
      };
    });

  const postUpdate = [...stake.entries()]
    .map(([address, s]) => ({ address, stake: s + (pendingSlash.get(address) ?? 0n) }))
    .filter((v) => v.stake > 0n);
  postUpdate.sort((a, b) =>
    a.stake === b.stake ? a.address.toLowerCase().localeCompare(b.address.toLowerCase()) : a.stake > b.stake ? -1 : 1,
  );
  // Shares on one basis: each stake over the sum of the listed (post-update) stakes.
  const listedTotal = postUpdate.reduce((sum, v) => sum + v.stake, 0n);
  const voters: ExpectedVoter[] = postUpdate.map((v) => ({
    rank: postUpdate.findIndex((w) => w.stake === v.stake) + 1,
    address: v.address,
    stake: formatUnits(v.stake, 18),
    delegate: delegates.get(v.address) ?? null,
    pending_delegate: pendingDelegates.get(v.address) ?? null,
    pending_unstake: formatUnits(pendingUnstakes.get(v.address)?.tokens ?? 0n, 18),
    unstake_time: pendingUnstakes.has(v.address) ? iso(pendingUnstakes.get(v.address)!.at) : null,
    share_of_total_stake: Number((v.stake * 10n ** 12n) / listedTotal) / 1e12,
  }));

  const pending = [...questions.values()].filter((q) => q.dvm && !["Q1", "Q2", "N1"].includes(q.key)).length + 1; // + the NUMERICAL request
  const toVote =
    [...questions.values()].filter((q) => q.dvm && !["Q1", "Q2", "N1"].includes(q.key) && q.dvm.lastVotingRound === currentRound).length +
    1;
  const [ethBlock, polyBlock] = await Promise.all([eth.public_.getBlockNumber(), poly.public_.getBlockNumber()]);
  return {
    addresses: { votingV2: voting, optimisticOracleV2: oo, managedOptimisticOracleV2: managedOo, childTunnel: tunnel, negRiskOperators },
    fromBlocks: { votingV2: 0, optimisticOracleV2: polygonFromBlock },
    expected: {
      chain_time: iso(now),
      summary: {
        pending_requests: pending,
        disputed_requests: disputes.filter((d) => d.status === "disputed" || d.status === "queued" || d.status === "voting").length,
        active_round: {
          round_id: currentRound,
          phase: "commit",
          phase_ends_at: iso(roundStart(currentRound) + PHASE_LENGTH),
          round_ends_at: iso(roundStart(currentRound + 1)),
          requests_to_vote: toVote,
        },
      },
      disputes,
      rounds,
      voters,
      cumulative_stake: formatUnits(cumulativeStake, 18),
      pending_unstakes: {
        stakers: pendingUnstakes.size,
        tokens: formatUnits(
          [...pendingUnstakes.values()].reduce((sum, p) => sum + p.tokens, 0n),
          18,
        ),
      },
      blocks: { ethereum: Number(ethBlock) + 1, polygon: Number(polyBlock) + 1 },
      multi_block_round: K + 2,
    },
  };
}
