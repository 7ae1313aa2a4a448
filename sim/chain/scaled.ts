// A mainnet-scale oracle world on top of the seeded local chains (for `npm run bench`): thousands of Polymarket disputes
// with ≥ 1 kB question texts bridged in both forms mainnet has seen (legacy cleartext, and since 2025-04 compressed),
// some questions disputed twice, requests resolved in past rounds (lazily: each resolves in a round after its vote),
// a few still pending, rolled or deleted, hundreds of past rounds of reveals, and a crowd of stakers of whom some have
// slashing trackers far behind. Seeded in minutes with the mocks' bulk helpers (one transaction, many real events).
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  encodeAbiParameters,
  encodePacked,
  getAddress,
  type Hex,
  http,
  keccak256,
  parseUnits,
  stringToHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { mainnet, polygon } from "viem/chains";
import { dvmRequestId, legacyBridgedAncillaryData, stampAncillaryData } from "@/lib/oracle/ancillary";
import type { LocalChains } from "./index";
import { compileContracts } from "./compile";
import { FIRST_ROUND, POLYMARKET_ADAPTERS, polymarketAncillary, ROOT_TUNNEL_ADDRESS, SPORTS_ORACLE } from "./seed";

export interface ScaledWorldOptions {
  disputes: number;
  rounds: number;
  stakers: number;
  revealersPerRound: number;
  /** Extra resolved (non-Polymarket) requests: what stakers with old trackers must walk through. */
  fillerResolved: number;
}

export const MAINNET_SCALE: ScaledWorldOptions = {
  disputes: 2_000,
  rounds: 600,
  stakers: 150,
  revealersPerRound: 12,
  fillerResolved: 2_000,
};

/** Each scaled dispute's status as the contracts define it (docs/oracle-facts.md, "Vocabulary"). */
export type ScaledStatus = "dvm_resolved" | "queued" | "voting" | "deleted" | "disputed";

export interface ScaledWorld {
  /** The standard disputes, each bridged to a DVM request; the neg-risk and sports ones (Polygon only) are not counted. */
  disputes: number;
  disputedTwice: number;
  forms: { legacy: number; compressed: number };
  /** What /disputes must answer for each seeded dispute, of every kind: one row each, keyed by title and request time. */
  expected: { title: string; requestedAt: string; status: ScaledStatus; rollCount: number }[];
  /** The neg-risk questions and their market's condition (null: no operator prepared it), and the sports games'. */
  negRisk: { questionId: Hex; conditionId: Hex | null }[];
  games: { gameId: Hex; conditionIds: Hex[] }[];
  pending: number;
  rolled: number;
  deleted: number;
  resolvedRequests: number;
  revealRounds: number;
  reveals: number;
  stakers: number;
  stakersFarBehind: number;
  delegations: { twoSided: number; oneSided: number };
  unstaking: number;
  /** VoteCommitted logs in the current round, and the distinct committers among them. */
  commits: { logs: number; committers: number };
  seedMs: number;
}

// anvil's first dev account (public test key).
const account = privateKeyToAccount("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
const YES_OR_NO = stringToHex("YES_OR_NO_QUERY", { size: 32 });
const NUMERICAL = stringToHex("NUMERICAL", { size: 32 });
const addressOf = (label: string): Address => getAddress(`0x${keccak256(stringToHex(label)).slice(-40)}`);
const hexNo0x = (a: string) => a.slice(2).toLowerCase();

function driver(url: string, chain: typeof mainnet | typeof polygon) {
  const transport = http(url, { retryCount: 0 });
  const pub = createPublicClient({ chain, transport });
  const wallet = createWalletClient({ chain, transport, account });
  return {
    pub,
    async send(address: Address, abi: Abi, functionName: string, args: unknown[], gas = 29_000_000n) {
      const hash = await wallet.writeContract({ address, abi, functionName, args, gas });
      // A 29M-gas bulk transaction can take a while on a loaded machine.
      const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 600_000 }).catch((error: unknown) => {
        throw new Error(`scaled seed: ${functionName} not mined: ${(error as Error).message.split("\n")[0]}`);
      });
      if (receipt.status !== "success") throw new Error(`scaled seed: ${functionName} reverted`);
      return receipt;
    },
  };
}

interface BridgedLog {
  eventName: string;
  args: { time: bigint; parentRequestId: Hex };
}

const conditionOf = (oracle: Address, questionId: Hex) =>
  keccak256(encodePacked(["address", "bytes32", "uint256"], [oracle, questionId, 2n]));

const chunk = <T>(list: T[], size: number) =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

/** The ancillary data of scaled question `i` (what the Polymarket simulator would list it by; bench/resolution.ts). */
export const scaledQuestionAncillary = (i: number): Hex => longQuestion(i).ancillary;

/** A question text of about 1.1 kB, as long Polymarket rules are. */
function longQuestion(i: number): { title: string; ancillary: Hex } {
  const title = `Scaled question #${i}: will outcome ${i % 97} happen before the deadline?`;
  const rules =
    `This market resolves to "Yes" if outcome ${i % 97} is officially confirmed before the deadline, and "No" otherwise. ` +
    "The primary resolution source is the official announcement; a consensus of credible reporting may be used. ".repeat(9);
  return { title, ancillary: polymarketAncillary(title, rules) };
}

export async function seedScaledWorld(chains: LocalChains, options: ScaledWorldOptions = MAINNET_SCALE): Promise<ScaledWorld> {
  const started = Date.now();
  const artifacts = compileContracts();
  const V = artifacts.MockVotingV2.abi;
  const OO = artifacts.MockOptimisticOracleV2.abi;
  const T = artifacts.MockOracleChildTunnel.abi;
  const eth = driver(chains.anvilUrls.ethereum, mainnet);
  const poly = driver(chains.anvilUrls.polygon, polygon);
  const { votingV2, optimisticOracleV2: oo, childTunnel } = chains.addresses;
  const now = Number((await poly.pub.getBlock()).timestamp);
  // Hundreds of blocks above the gas target raise the base fee 12.5 % each (EIP-1559): the dev account's 1,000 ETH
  // runs out and anvil drops the next transaction without a word. Fund it for the whole seeding.
  for (const chain of [eth, poly]) {
    await (chain.pub.request as (args: { method: string; params: unknown[] }) => Promise<unknown>)({
      method: "anvil_setBalance",
      params: [account.address, `0x${(10n ** 30n).toString(16)}`],
    });
  }

  // ---- Polygon: disputes, 5% of them a second dispute of an earlier question (same text, later request) ----
  const requester = POLYMARKET_ADAPTERS[0];
  const questions = Array.from({ length: options.disputes }, (_, i) => {
    const twiceOf = i % 20 === 19 ? i - 10 : null;
    const { ancillary, title } = longQuestion(twiceOf ?? i);
    const timestamp = now - 90 * 86_400 + i * 600 + (twiceOf === null ? 0 : 300);
    return { i, title, ancillary, timestamp, proposalTime: timestamp + 120, twice: twiceOf !== null };
  });
  const bridged = new Map<number, { time: bigint; block: bigint; parentRequestId: Hex }>();
  for (const batch of chunk(questions, 60)) {
    const receipt = await poly.send(oo, OO, "seedBulkDisputes", [
      requester,
      YES_OR_NO,
      batch.map((q) => BigInt(q.timestamp)),
      batch.map((q) => BigInt(q.proposalTime)),
      batch.map((q) => q.ancillary),
      addressOf("scaled-proposer"),
      addressOf("scaled-disputer"),
    ]);
    // The tunnel emits PriceRequestBridged then PriceRequestAdded for each request it sends (OracleChildTunnel.sol).
    const logs = receipt.logs
      .filter((l) => l.address.toLowerCase() === childTunnel.toLowerCase())
      .map((log) => decodeEventLog({ abi: T, data: log.data, topics: log.topics }) as unknown as BridgedLog)
      .filter((log) => log.eventName === "PriceRequestBridged");
    if (logs.length !== batch.length) throw new Error("scaled seed: one bridging log per dispute expected");
    logs.forEach(({ args }, k) => {
      bridged.set(batch[k].i, { time: args.time, block: receipt.blockNumber, parentRequestId: args.parentRequestId });
    });
  }

  // ---- Ethereum: each dispute's DVM request, half legacy (cleartext), half compressed ----
  const forms = { legacy: 0, compressed: 0 };
  const requests = questions.map((q) => {
    const b = bridged.get(q.i)!;
    const stamped = stampAncillaryData(q.ancillary, requester);
    let ancillary: Hex;
    if (q.i % 2 === 0) {
      ancillary = legacyBridgedAncillaryData(stamped, oo);
      forms.legacy += 1;
    } else {
      // OracleChildTunnel.compressAncillaryData (sim/chain/contracts/MockOracleChildTunnel.sol, the 2025-04 format).
      const text =
        `ancillaryDataHash:${hexNo0x(keccak256(stamped))},childBlockNumber:${b.block},childOracle:${hexNo0x(childTunnel)},` +
        `childRequester:${hexNo0x(oo)},childChainId:137`;
      ancillary = stringToHex(text);
      if (dvmRequestId(YES_OR_NO, b.time, ancillary) !== b.parentRequestId) throw new Error("scaled seed: compressed form mismatch");
      forms.compressed += 1;
    }
    return { q, time: b.time, ancillary };
  });
  // 3% stay pending (voted this round or next), the rest resolved in past rounds spread over the history.
  const pendingEvery = 33;
  const pending = requests.filter((_, i) => i % pendingEvery === 0);
  const resolved = requests.filter((_, i) => i % pendingEvery !== 0);
  const firstRound = FIRST_ROUND - options.rounds;
  // 40 per transaction: 80 of these ≥ 1 kB texts make a ~130 kB transaction, above the 128 kB a node's pool accepts
  // (go-ethereum txMaxSize); anvil answered with a hash and never mined it.
  for (const batch of chunk(resolved, 40)) {
    await eth.send(votingV2, V, "seedBulkResolved", [
      YES_OR_NO,
      batch.map((r) => r.time),
      batch.map((r) => r.ancillary),
      batch.map((r) => firstRound + (r.q.i % options.rounds)),
      10n ** 18n,
    ]);
  }
  const fillers = Array.from({ length: options.fillerResolved }, (_, i) => stringToHex(`q: scaled filler request ${i}`));
  for (const batch of chunk(fillers, 150)) {
    await eth.send(votingV2, V, "seedBulkResolved", [
      NUMERICAL,
      batch.map((_, k) => BigInt(now - 200 * 86_400 + k)),
      batch,
      batch.map((_, k) => firstRound + (k % options.rounds)),
      0n,
    ]);
  }
  // The pending ones, in six kinds (VotingV2's lazy processing, sim/chain/SOURCES.md): requested now (voted next round,
  // Future); added one or two rounds ago and never processed (Active, rolled once or twice without a RequestRolled
  // log); added three rounds ago and processed now (one RequestRolled carrying 3); added six rounds ago and processed
  // now (past maxRolls 4: RequestDeleted carrying 6); added six rounds ago and never processed (ToDelete).
  const currentRound = Number(await eth.pub.readContract({ address: votingV2, abi: V, functionName: "getCurrentRoundId" }));
  const kinds = [
    { ago: 0, process: false, status: "queued", rolls: 0 },
    { ago: 1, process: false, status: "voting", rolls: 1 },
    { ago: 2, process: false, status: "voting", rolls: 2 },
    { ago: 3, process: true, status: "voting", rolls: 3 },
    { ago: 6, process: true, status: "deleted", rolls: 6 },
    { ago: 6, process: false, status: "disputed", rolls: 6 },
  ] as const;
  const expectedOf = new Map<number, { status: ScaledStatus; rollCount: number }>();
  for (const r of resolved) expectedOf.set(r.q.i, { status: "dvm_resolved", rollCount: 0 });
  let rolled = 0;
  let deleted = 0;
  for (const [kind, spec] of kinds.entries()) {
    const mine = pending.filter((_, k) => k % kinds.length === kind);
    for (const r of mine) expectedOf.set(r.q.i, { status: spec.status, rollCount: spec.rolls });
    if (spec.rolls > 0) rolled += mine.length;
    if (spec.status === "deleted") deleted += mine.length;
    if (spec.ago === 0) {
      for (const r of mine) await eth.send(votingV2, V, "seedRequest", [ROOT_TUNNEL_ADDRESS, YES_OR_NO, r.time, r.ancillary], 3_000_000n);
      continue;
    }
    for (const batch of chunk(mine, 40)) {
      await eth.send(votingV2, V, "seedBulkPending", [
        YES_OR_NO,
        batch.map((r) => r.time),
        batch.map((r) => r.ancillary),
        batch.map(() => currentRound - spec.ago),
      ]);
    }
    if (spec.process) {
      for (const r of mine) await eth.send(votingV2, V, "seedRoll", [YES_OR_NO, r.time, r.ancillary], 3_000_000n);
    }
  }

  // ---- neg-risk and sports disputes (Polygon only, not bridged on): the join's other paths ----
  // Neg-risk: the neg-risk adapter's questions, a 20th of the disputes; each operator prepares half of them (the first
  // on the NegRiskAdapter UMA's monitor calls legacy, the V4 one on its own), one in ten is prepared by neither.
  const nrAdapterRequester = POLYMARKET_ADAPTERS[2];
  const negRisk = Array.from({ length: Math.max(4, Math.round(options.disputes / 20)) }, (_, i) => {
    const ancillary = polymarketAncillary(`Scaled neg-risk question #${i}: will candidate ${i} win?`, "Scaled neg-risk market.");
    return { i, title: `Scaled neg-risk question #${i}: will candidate ${i} win?`, ancillary, operator: i % 10 === 9 ? null : i % 2 };
  });
  // 40 a transaction: each dispute costs about 0.4M gas (the tunnel's compression, events, the adapter's callback).
  for (const batch of chunk(negRisk, 40)) {
    await poly.send(oo, OO, "seedBulkDisputes", [
      nrAdapterRequester,
      YES_OR_NO,
      batch.map((q) => BigInt(now - 30 * 86_400 + q.i * 600)),
      batch.map((q) => BigInt(now - 30 * 86_400 + q.i * 600 + 120)),
      batch.map((q) => q.ancillary),
      addressOf("scaled-proposer"),
      addressOf("scaled-disputer"),
    ]);
  }
  const NR = compileContracts().MockNegRiskOperator.abi;
  // The market each prepared question is (what Gamma would list): its condition names the operator's nrAdapter().
  const negRiskCondition = new Map<number, Hex>();
  for (const [k, operator] of chains.addresses.negRiskOperators.entries()) {
    const mine = negRisk.filter((q) => q.operator === k);
    const marketId = `0x${keccak256(stringToHex(`scaled-neg-risk-market-${k}`)).slice(2, 64)}00` as Hex;
    if (!mine.length) continue;
    await poly.send(operator, NR, "seedBulkPrepare", [marketId, mine.map((q) => keccak256(q.ancillary))]);
    const nrAdapter = (await poly.pub.readContract({ address: operator, abi: NR, functionName: "nrAdapter" })) as Address;
    mine.forEach((q, index) =>
      negRiskCondition.set(q.i, conditionOf(nrAdapter, `0x${(BigInt(marketId) + BigInt(index)).toString(16).padStart(64, "0")}`)),
    );
  }
  // Sports: a 40th of the disputes are games (MULTIPLE_VALUES), each with a winner, a spreads and a totals market.
  const games = Array.from({ length: Math.max(4, Math.round(options.disputes / 40)) }, (_, i) => {
    const title = `Scaled game #${i}: Home ${i} vs. Away ${i}`;
    const ancillary = stringToHex(
      `{"title":"${title}","description":"Final scores.","labels":["Home","Away"]},initializer:${"1".repeat(40)}`,
    );
    return { i, title, ancillary };
  });
  for (const batch of chunk(games, 40)) {
    await poly.send(SPORTS_ORACLE, compileContracts().MockUmaSportsOracle.abi, "seedBulkMarkets", [
      batch.map((g) => keccak256(g.ancillary)),
    ]);
    await poly.send(oo, OO, "seedBulkDisputes", [
      SPORTS_ORACLE,
      stringToHex("MULTIPLE_VALUES", { size: 32 }),
      batch.map((g) => BigInt(now - 20 * 86_400 + g.i * 600)),
      batch.map((g) => BigInt(now - 20 * 86_400 + g.i * 600 + 120)),
      batch.map((g) => g.ancillary),
      addressOf("scaled-proposer"),
      addressOf("scaled-disputer"),
    ]);
  }
  const otherExpected = [
    ...negRisk.map((q) => ({ title: q.title, requestedAt: new Date((now - 30 * 86_400 + q.i * 600) * 1000).toISOString() })),
    ...games.map((g) => ({ title: g.title, requestedAt: new Date((now - 20 * 86_400 + g.i * 600) * 1000).toISOString() })),
  ].map((e) => ({ ...e, status: "disputed" as const, rollCount: 0 }));

  // ---- stakers, trackers, reveals ----
  const stakers = Array.from({ length: options.stakers }, (_, i) => addressOf(`scaled-staker-${i}`));
  const amounts = stakers.map((_, i) => parseUnits(String(10_000 + ((i * 7919) % 90_000)), 18));
  for (const batch of chunk(
    stakers.map((s, i) => [s, amounts[i]] as const),
    75,
  )) {
    await eth.send(votingV2, V, "seedStakes", [batch.map(([s]) => s), batch.map(([, a]) => a)]);
  }
  // Every third staker is dormant (trackers at the start of history); the others are up to date.
  let farBehind = 0;
  for (const [i, staker] of stakers.entries()) {
    if (i % 3 === 0) {
      farBehind += 1;
      continue;
    }
    await eth.send(votingV2, V, "seedTrackersBehind", [staker, 0n], 200_000n);
  }
  // ---- what UMA's figures count differently (docs/oracle-facts.md, "Figures") ----
  // Delegations: a tenth agreed by both sides, a tenth named by the staker only (not in effect). Unstakes: a tenth
  // request half their stake, one in 25 all of it. Slashes: a tenth lose 1 % of their stake to the next staker (VotingV2
  // redistributes what it slashes, so the pair sums to zero). Commits: 40 stakers commit on a request up for vote now,
  // 10 of them twice (commitVote only replaces the hash).
  let delegations = { twoSided: 0, oneSided: 0 };
  let unstaking = 0;
  for (const [i, staker] of stakers.entries()) {
    const delegate = addressOf(`scaled-delegate-${i}`);
    if (i % 10 === 1) {
      await eth.send(votingV2, V, "seedSetDelegate", [staker, delegate], 300_000n);
      delegations = { ...delegations, twoSided: delegations.twoSided + 1 };
    } else if (i % 10 === 2) {
      await eth.send(votingV2, V, "seedSetDelegateOneSided", [staker, delegate], 300_000n);
      delegations = { ...delegations, oneSided: delegations.oneSided + 1 };
    }
    if (i % 10 === 3 || i % 25 === 4) {
      await eth.send(votingV2, V, "seedRequestUnstake", [staker, i % 25 === 4 ? amounts[i] : amounts[i] / 2n], 300_000n);
      unstaking += 1;
    }
    if (i % 10 === 5 && i + 1 < stakers.length) {
      const slash = amounts[i] / 100n;
      await eth.send(votingV2, V, "seedSlash", [staker, -slash], 300_000n);
      await eth.send(votingV2, V, "seedSlash", [stakers[i + 1], slash], 300_000n);
    }
  }
  const upForVote = pending.filter((_, k) => k % kinds.length === 1)[0] ?? pending[0];
  let commits = 0;
  for (const [k, voter] of stakers.slice(0, 40).entries()) {
    for (let again = 0; again < (k < 10 ? 2 : 1); again++) {
      await eth.send(votingV2, V, "seedCommit", [voter, voter, YES_OR_NO, upForVote.time, upForVote.ancillary], 3_000_000n);
      commits += 1;
    }
  }

  const sample = requests[1];
  let reveals = 0;
  for (let r = 0; r < options.rounds; r++) {
    const voters = Array.from({ length: options.revealersPerRound }, (_, k) => stakers[(r * 5 + k) % stakers.length]);
    await eth.send(votingV2, V, "seedBulkReveals", [firstRound + r, voters, YES_OR_NO, sample.time, sample.ancillary, 10n ** 18n]);
    reveals += voters.length;
  }
  return {
    disputes: questions.length,
    disputedTwice: questions.filter((q) => q.twice).length,
    forms,
    expected: [
      ...questions.map((q) => ({
        title: q.title,
        requestedAt: new Date(q.timestamp * 1000).toISOString(),
        ...expectedOf.get(q.i)!,
      })),
      ...otherExpected,
    ],
    negRisk: negRisk.map((q) => ({ questionId: keccak256(q.ancillary), conditionId: negRiskCondition.get(q.i) ?? null })),
    // UmaSportsOracle: marketId = keccak256(abi.encode(gameId, type, underdog, line, creator)), its condition's oracle
    // the sports oracle (the seed's dev account creates them).
    games: games.map((g) => {
      const gameId = keccak256(g.ancillary);
      return {
        gameId,
        conditionIds: [
          [0, 0n],
          [1, 1_500_000n],
          [2, 2_500_000n],
        ].map(([type, line]) =>
          conditionOf(
            SPORTS_ORACLE,
            keccak256(
              encodeAbiParameters(
                [{ type: "bytes32" }, { type: "uint8" }, { type: "uint8" }, { type: "uint256" }, { type: "address" }],
                [gameId, Number(type), 0, BigInt(line), account.address],
              ),
            ),
          ),
        ),
      };
    }),
    pending: pending.length - deleted,
    rolled,
    deleted,
    resolvedRequests: resolved.length + fillers.length,
    revealRounds: options.rounds,
    reveals,
    stakers: stakers.length,
    stakersFarBehind: farBehind,
    delegations,
    unstaking,
    commits: { logs: commits, committers: Math.min(40, stakers.length) },
    seedMs: Date.now() - started,
  };
}
