// The indexer's derived tables on the local chains (through the public-RPC stand-ins, 5-block log ranges, so every
// table is built incrementally over many ranges):
//   - oracle_rounds / oracle_vote_tallies equal a from-scratch tally of the chain's own VoteCommitted / VoteRevealed
//     logs, and a dispute's vote counts its commits per round;
//   - a reorg that drops a commit is rewound and the round's row recomputed (equal to a from-scratch index);
//   - requests in a terminal state are not read again: the Multicall3 sub-calls sent to the RPC (recorded by a proxy
//     in front of the stand-in) hold no getState of a settled request and no getPriceRequestStatuses of a resolved one;
//   - a Polymarket proposal is `proposed`, then `resolved` past liveness, then `settled` with its time, from the
//     indexed ProposePrice / Settle logs alone.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type Abi, type Address, decodeFunctionData, encodeAbiParameters, type Hex, keccak256, parseAbi, toFunctionSelector } from "viem";
import { mainnet, polygon } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadEnv } from "@/lib/env";
import { oracleConfigFromEnv } from "@/lib/oracle/config";
import { createOracleContext, type OracleContext } from "@/lib/oracle/context";
import { readDisputeVote } from "@/lib/oracle/dispute-vote";
import { runIndexerPass } from "@/lib/oracle/indexer";
import { readIndexedProposals } from "@/lib/oracle/proposals";
import { getOracleDisputes } from "@/lib/oracle/service";
import { resolutionsByConditionId } from "@/lib/resolution/market-status";
import { type LocalChains, startLocalChains } from "@/sim/chain";
import { compileContracts } from "@/sim/chain/compile";
import { POLYMARKET_ADAPTERS, polymarketAncillary } from "@/sim/chain/seed";
import { detach } from "@/tests/helpers/detach";
import { freshDb } from "./helpers";
import { driver, YES_OR_NO } from "@/tests/helpers/chain-driver";

vi.setConfig({ testTimeout: 240_000, hookTimeout: 180_000 });

const multicall3 = parseAbi([
  "function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[])",
]);
const GET_STATE = toFunctionSelector("getState(address,bytes32,uint256,bytes)");
const GET_STATUSES = toFunctionSelector("getPriceRequestStatuses((bytes32,uint256,bytes)[])");

let chains: LocalChains;
let V: Abi;
let OO: Abi;
const closers: (() => Promise<void>)[] = [];

/** A JSON-RPC proxy in front of a stand-in that keeps every Multicall3 sub-call's calldata it forwards. */
async function recordingProxy(target: string) {
  const subCalls: Hex[] = [];
  const server = http.createServer(
    detach(async (req: http.IncomingMessage, res: http.ServerResponse) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks);
      const parsed = JSON.parse(body.toString()) as { method: string; params?: unknown[] } | { method: string; params?: unknown[] }[];
      for (const call of Array.isArray(parsed) ? parsed : [parsed]) {
        if (call.method !== "eth_call") continue;
        const data = ((call.params?.[0] as { data?: Hex; input?: Hex }) ?? {}).data ?? (call.params?.[0] as { input?: Hex }).input;
        if (!data) continue;
        try {
          const { args } = decodeFunctionData({ abi: multicall3, data });
          for (const c of args[0]) subCalls.push(c.callData);
        } catch {
          subCalls.push(data);
        }
      }
      const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
      res.writeHead(upstream.status, { "content-type": "application/json" });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, subCalls };
}

let eth: ReturnType<typeof driver>;
let poly: ReturnType<typeof driver>;
let ethCalls: Hex[];
let polyCalls: Hex[];

async function freshContext(id: string, rpc?: { ethereum: string; polygon: string }): Promise<OracleContext> {
  const { db, close } = await freshDb();
  closers.push(close);
  const env = { ...process.env, ...chains.env, ...(rpc ? { ETH_RPC_URL: rpc.ethereum, POLYGON_RPC_URL: rpc.polygon } : {}) };
  return createOracleContext(id, oracleConfigFromEnv(loadEnv(env)), async () => db);
}

let ctx: OracleContext;

beforeAll(async () => {
  chains = await startLocalChains({ logChunkSize: 5 });
  const artifacts = compileContracts();
  V = artifacts.MockVotingV2.abi;
  OO = artifacts.MockOptimisticOracleV2.abi;
  eth = driver(chains.anvilUrls.ethereum, mainnet);
  poly = driver(chains.anvilUrls.polygon, polygon);
  const [ethProxy, polyProxy] = await Promise.all([recordingProxy(chains.env.ETH_RPC_URL), recordingProxy(chains.env.POLYGON_RPC_URL)]);
  ethCalls = ethProxy.subCalls;
  polyCalls = polyProxy.subCalls;
  ctx = await freshContext("derived-chain", { ethereum: ethProxy.url, polygon: polyProxy.url });
}, 120_000);

afterAll(async () => {
  while (closers.length) await closers.pop()!();
  await chains?.stop();
});

type VoteLog = {
  args: { voter: Address; roundId: number; identifier: Hex; time: bigint; ancillaryData: Hex; price?: bigint; numTokens?: bigint };
};
const idOf = (a: VoteLog["args"]) =>
  keccak256(encodeAbiParameters([{ type: "bytes32" }, { type: "uint256" }, { type: "bytes" }], [a.identifier, a.time, a.ancillaryData]));

/** The rounds and tallies straight from the chain's logs. */
async function tallyFromChain() {
  const read = async (eventName: string) =>
    (await eth.pub.getContractEvents({ address: chains.addresses.votingV2, abi: V, eventName, fromBlock: 0n })) as unknown as VoteLog[];
  const [commits, reveals] = await Promise.all([read("VoteCommitted"), read("VoteRevealed")]);
  const rounds = new Map<number, { commits: number; reveals: number; voters: Set<string>; requests: Set<string>; tokens: bigint }>();
  const at = (r: number) => rounds.get(r) ?? { commits: 0, reveals: 0, voters: new Set<string>(), requests: new Set<string>(), tokens: 0n };
  for (const c of commits)
    rounds.set(Number(c.args.roundId), { ...at(Number(c.args.roundId)), commits: at(Number(c.args.roundId)).commits + 1 });
  const tallies = new Map<string, { voters: number; tokens: bigint }>();
  for (const { args } of reveals) {
    const r = at(Number(args.roundId));
    r.reveals++;
    r.voters.add(args.voter.toLowerCase());
    r.requests.add(idOf(args));
    r.tokens += args.numTokens!;
    rounds.set(Number(args.roundId), r);
    const key = `${idOf(args)}:${args.roundId}:${args.price}`;
    const t = tallies.get(key) ?? { voters: 0, tokens: 0n };
    tallies.set(key, { voters: t.voters + 1, tokens: t.tokens + args.numTokens! });
  }
  return {
    rounds: [...rounds]
      .map(([roundId, r]) => [roundId, r.commits, r.reveals, r.voters.size, r.requests.size, r.tokens.toString()])
      .sort((a, b) => Number(a[0]) - Number(b[0])),
    tallies: [...tallies].map(([k, t]) => `${k}:${t.voters}:${t.tokens}`).sort(),
  };
}

async function tallyFromTables(c: OracleContext) {
  const db = await c.db();
  const rounds = await db.oracleRound.findMany({
    where: { OR: [{ reveals: { gt: 0 } }, { commits: { gt: 0 } }] },
    orderBy: { roundId: "asc" },
  });
  const tallies = await db.oracleVoteTally.findMany();
  return {
    rounds: rounds.map((r) => [r.roundId, r.commits, r.reveals, r.uniqueRevealers, r.requestsRevealed, r.tokensRevealed.toFixed()]),
    tallies: tallies.map((t) => `${t.requestId}:${t.roundId}:${t.price.toFixed()}:${t.voters}:${t.tokens.toFixed()}`).sort(),
  };
}

let committed: { requestId: Hex; round: number };

/** The DVM request VotingV2 added last (the seeded world's newest, in its commit phase). */
async function lastAddedRequest() {
  const added = (await eth.pub.getContractEvents({
    address: chains.addresses.votingV2,
    abi: V,
    eventName: "RequestAdded",
    fromBlock: 0n,
  })) as unknown as VoteLog[];
  return added[added.length - 1].args;
}

// Steps on one pair of local chains: each starts from the chain and the index the one before left (the commit the first
// step makes is the one the reorg drops), so the steps keep their order when CI shuffles the suite.
describe("derived tables on the local chains", { shuffle: false }, () => {
  it("rounds and tallies equal a from-scratch tally of the chain's logs; a dispute's vote counts its commits per round", async () => {
    // The seeded world ends in a commit phase: three stakers commit on one DVM request.
    const target = await lastAddedRequest();
    for (const voter of [0x51, 0x52, 0x53]) {
      const who = `0x${voter.toString(16).padStart(40, "0")}`;
      await eth.send(chains.addresses.votingV2, V, "seedCommit", [who, who, target.identifier, target.time, target.ancillaryData]);
    }
    const round = Number(await eth.pub.readContract({ address: chains.addresses.votingV2, abi: V, functionName: "getCurrentRoundId" }));
    committed = { requestId: idOf(target), round };
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    const chain = await tallyFromChain();
    expect(chain.rounds.length).toBeGreaterThan(2);
    expect(await tallyFromTables(ctx)).toEqual(chain);
    const vote = await readDisputeVote(ctx, committed.requestId);
    expect(vote.rounds.find((r) => r.round_id === round)).toMatchObject({ commits: 3, reveals: 0 });
    expect(vote.commits).toBeGreaterThanOrEqual(3);
    // Reveals keep no text: none is stored raw.
    const db = await ctx.db();
    expect(await db.oracleVote.count({ where: { revealed: true } })).toBeGreaterThan(0);
  });

  it("a reorg that drops a commit rewinds the round's row to what a from-scratch index of the new chain gives", async () => {
    const who = "0x0000000000000000000000000000000000000054";
    const t = await lastAddedRequest();
    await eth.send(chains.addresses.votingV2, V, "seedCommit", [who, who, t.identifier, t.time, t.ancillaryData]);
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    expect((await readDisputeVote(ctx, committed.requestId)).rounds.find((r) => r.round_id === committed.round)?.commits).toBe(4);
    const { droppedFrom } = await chains.standins.ethereum.reorg(1);
    const pass = await runIndexerPass(ctx);
    expect(pass.chains.ethereum.rewound_to).toBe(Number(droppedFrom) - 1);
    expect((await readDisputeVote(ctx, committed.requestId)).rounds.find((r) => r.round_id === committed.round)?.commits).toBe(3);
    const scratch = await freshContext("derived-scratch");
    expect((await runIndexerPass(scratch)).status).toBe("ok");
    expect(await tallyFromTables(ctx)).toEqual(await tallyFromTables(scratch));
    expect(await tallyFromTables(ctx)).toEqual(await tallyFromChain());
  });

  it("terminal requests are not read again: no getState of a settled request, no status read of a resolved one", async () => {
    const db = await ctx.db();
    polyCalls.length = 0;
    ethCalls.length = 0;
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    const disputes = (await getOracleDisputes(ctx)).body.data;
    const settled = disputes.filter((d) => d.status === "settled");
    const withOrigin = disputes.filter((d) => d.oracle_address);
    expect(settled.length).toBeGreaterThan(0);
    const getStates = polyCalls.filter((c) => c.startsWith(GET_STATE));
    // One getState per disputed request that is not settled; the settled ones come from their Settle logs.
    expect(getStates).toHaveLength(withOrigin.length - settled.length);
    const resolvedDvm = await db.oracleRequest.count({ where: { chainId: 1, terminal: true } });
    expect(resolvedDvm).toBeGreaterThan(0);
    const statusReads = ethCalls.filter((c) => c.startsWith(GET_STATUSES));
    const dvmRows = disputes.filter((d) => d.dvm && d.dvm.status !== "deleted");
    expect(statusReads.length).toBe(dvmRows.length - dvmRows.filter((d) => d.dvm!.status === "resolved").length);
    // The next pass, with nothing new on either chain, reads the same non-terminal requests and no terminal one.
    polyCalls.length = 0;
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    expect(polyCalls.filter((c) => c.startsWith(GET_STATE))).toHaveLength(getStates.length);
  });

  it("a Polymarket proposal on the legacy OOv2 is proposed, then expired past liveness, then settled, from ProposePrice and Settle alone", async () => {
    const requester = POLYMARKET_ADAPTERS[0];
    const oo = chains.addresses.optimisticOracleV2;
    const ancillary = polymarketAncillary("Will the derived-table test propose Yes?", "Derived test.");
    const time = 1_780_500_000n;
    await poly.send(oo, OO, "seedRequestPrice", [
      requester,
      YES_OR_NO,
      time,
      ancillary,
      "0x0000000000000000000000000000000000abc001",
      5_000_000n,
    ]);
    const receipt = await poly.send(oo, OO, "seedProposePrice", [
      requester,
      "0x0000000000000000000000000000000000abc002",
      YES_OR_NO,
      time,
      ancillary,
      10n ** 18n,
    ]);
    const proposedAt = (await poly.pub.getBlock({ blockNumber: receipt.blockNumber })).timestamp;
    const questionId = keccak256(ancillary).toLowerCase();
    const find = async () => (await readIndexedProposals(ctx)).find((p) => p.question_id === questionId);
    const market = { condition_id: "0x00000000000000000000000000000000000000000000000000000000000000c1", outcomes: ["Yes", "No"] };
    const status = async () => {
      const p = (await find())!;
      const iso = (s: number | null) => (s === null ? null : new Date(s * 1000).toISOString());
      return resolutionsByConditionId(
        [],
        [
          {
            ...p,
            requested_at: iso(p.requested_at),
            proposed_at: iso(p.proposed_at),
            disputed_at: iso(p.disputed_at),
            settled_at: iso(p.settled_at),
            market,
          },
        ],
      ).get(market.condition_id)!;
    };
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    expect(await find()).toMatchObject({ oo_state: 2, proposed_at: Number(proposedAt), proposed_price: "1", settled_at: null });
    expect(await status()).toMatchObject({
      status: "proposed",
      proposed_outcome: "Yes",
      proposed_at: new Date(Number(proposedAt) * 1000).toISOString(),
    });
    // Past liveness (the expiration the ProposePrice log carries): the legacy OOv2's Expired, final but not yet settled
    // (docs/resolution.md, "Status").
    const expires = (await (await ctx.db()).oracleRequest.findFirst({ where: { questionId } }))!.expiresAt!;
    await poly.advanceTo(expires + 10n);
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    expect(await find()).toMatchObject({ oo_state: 3 });
    expect((await status()).status).toBe("expired");
    const settle = await poly.send(oo, OO, "seedSettle", [requester, YES_OR_NO, time, ancillary]);
    const settledAt = (await poly.pub.getBlock({ blockNumber: settle.blockNumber })).timestamp;
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    expect(await find()).toMatchObject({ oo_state: 6, settled_at: Number(settledAt) });
    expect(await status()).toMatchObject({ status: "settled", settled_at: new Date(Number(settledAt) * 1000).toISOString() });
  });
});
