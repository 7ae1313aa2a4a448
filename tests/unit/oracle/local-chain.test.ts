// The four oracle endpoints end to end against the seeded local chains (two anvils, contracts with the real ABIs):
// route handler → service → viem → anvil, with the real database and log scans. Expected figures come from the seed.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The disputes join asks Gamma (a closed port here) for the markets the sampler never stored: that fails whatever the
// retries, and retrying with backoff only adds time (the join itself: tests/unit/resolution).
vi.hoisted(() => {
  process.env.UPSTREAM_MAX_RETRIES = "0";
});
import { GET as disputesGET } from "@/app/api/oracle/disputes/route";
import { GET as roundsGET } from "@/app/api/oracle/rounds/route";
import { GET as summaryGET } from "@/app/api/oracle/summary/route";
import { GET as votersGET } from "@/app/api/oracle/voters/route";
import { loadEnv } from "@/lib/env";
import { type OracleConfig, oracleConfigFromEnv } from "@/lib/oracle/config";
import { createOracleContext, indexedHead, setDefaultOracleContext, votingScan } from "@/lib/oracle/context";
import { runIndexerPass } from "@/lib/oracle/indexer";
import { TOPICS } from "@/lib/oracle/derived";
import { loadRounds } from "@/lib/oracle/rounds";
import { advanceScan } from "@/lib/oracle/scan";
import { getOracleSummary, getOracleVoters } from "@/lib/oracle/service";
import { type LocalChains, startLocalChains } from "@/sim/chain";
import { callHandler, freshDb, startRpcProxy } from "./helpers";

// Each test indexes real local chains (anvil) from scratch: on a loaded shared machine that takes tens of seconds.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let chains: LocalChains;
let config: OracleConfig;

beforeAll(async () => {
  chains = await startLocalChains({ logChunkSize: 4 });
  config = oracleConfigFromEnv(loadEnv({ ...process.env, ...chains.env }));
  setDefaultOracleContext(createOracleContext("local-chain", config));
}, 60_000);

afterAll(async () => {
  setDefaultOracleContext(undefined);
  await chains?.stop();
});

describe("oracle endpoints on the seeded local chain", () => {
  it("summary: pending and disputed requests, the active round from the chain's clock", async () => {
    const { status, body, headers } = await callHandler(summaryGET, "/api/oracle/summary");
    expect(status).toBe(200);
    expect(body.data).toMatchObject(chains.expected.summary);
    expect(body.meta).toMatchObject({ source: "chain", as_of: chains.expected.chain_time });
    expect(headers.get("cache-control")).toMatch(/^private, max-age=\d+$/);
  });

  it("disputes: every Polymarket dispute, titles in cleartext (also the compressed bridged one), lifecycle, newest first", async () => {
    const { status, body } = await callHandler(disputesGET, "/api/oracle/disputes");
    expect(status).toBe(200);
    const expected = chains.expected.disputes;
    expect(body.data).toHaveLength(expected.length);
    expect(body.meta).toMatchObject({ source: "chain", count: expected.length, as_of: chains.expected.chain_time });
    body.data.forEach((row: Record<string, unknown>, i: number) => {
      const e = expected[i];
      expect(row).toMatchObject({
        title: e.title,
        status: e.status,
        vote_phase: e.vote_phase,
        roll_count: e.roll_count,
        requester: e.requester,
        proposer: e.proposer,
        disputer: e.disputer,
        proposed_price: e.proposed_price,
        disputed_at: e.disputed_at,
        identifier: "YES_OR_NO_QUERY",
        chain: "polygon",
      });
    });
    // Every state of the lifecycle is present.
    expect(new Set(body.data.map((r: { status: string }) => r.status))).toEqual(
      new Set(["disputed", "queued", "voting", "resolved", "settled"]),
    );
    // UMA's own names beside ours.
    for (const r of body.data as { status: string; oo_state: string | null; dvm_status: string | null }[]) {
      if (r.status === "queued") expect([r.oo_state, r.dvm_status]).toEqual(["Disputed", "Future"]);
      if (r.status === "voting") expect([r.oo_state, r.dvm_status]).toEqual(["Disputed", "Active"]);
      if (r.status === "settled") expect(r.oo_state).toBe("Settled");
    }
    // The bridged request whose Polygon origin lies before the scan window: title recovered from mainnet's compressed form.
    const recovered = expected.find((d) => d.recovered_from_mainnet)!;
    const row = body.data.find((r: { title: string }) => r.title === recovered.title);
    expect(row.dvm).toMatchObject({ ancillary_form: "compressed", status: "active" });
    expect(row.dispute_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    // The non-Polymarket dispute on the same oracle is not listed.
    expect(body.data.map((r: { title: string }) => r.title)).not.toContain("An unrelated OOv2 request");
  });

  it("rounds: reveal counts, unique revealers and tokens revealed per round, newest first", async () => {
    const { status, body } = await callHandler(roundsGET, "/api/oracle/rounds");
    expect(status).toBe(200);
    expect(body.data).toHaveLength(chains.expected.rounds.length);
    body.data.forEach((row: Record<string, unknown>, i: number) => expect(row).toMatchObject(chains.expected.rounds[i]));
    expect(body.meta.current_round_id).toBe(chains.expected.summary.active_round.round_id);
    // rounds(r) is frozen at the first reveal: the current round (no reveal yet) reports null thresholds.
    expect(body.data[0]).toMatchObject({ status: "active", reveal_count: 0, cumulative_stake_at_round: null });
    expect(body.data[1].cumulative_stake_at_round).not.toBeNull();
  });

  it("voters: ranked by post-slash stake, ties share a rank, two-sided delegates, pending unstakes, shares on one basis", async () => {
    const { status, body } = await callHandler(votersGET, "/api/oracle/voters");
    expect(status).toBe(200);
    const expected = chains.expected.voters;
    expect(body.data).toHaveLength(expected.length);
    body.data.forEach((row: { share_of_total_stake: number }, i: number) => {
      const { share_of_total_stake, ...rest } = expected[i];
      expect(row).toMatchObject(rest);
      expect(row.share_of_total_stake).toBeCloseTo(share_of_total_stake, 9);
    });
    expect(body.meta).toMatchObject({
      source: "chain",
      limit: 50,
      count: expected.length,
      total: expected.length,
      cumulative_stake: chains.expected.cumulative_stake,
      pending_unstakes: chains.expected.pending_unstakes,
    });
    const limited = await callHandler(votersGET, "/api/oracle/voters?limit=3");
    expect(limited.body.data.map((v: { rank: number }) => v.rank)).toEqual([1, 2, 2]);
    expect(limited.body.meta).toMatchObject({ limit: 3, count: 3, cache: "hit" });
  });

  it("voters: a bad limit is a 400 naming the parameter", async () => {
    for (const bad of ["0", "501", "abc", "2.5", "-1"]) {
      const { status, body, headers } = await callHandler(votersGET, `/api/oracle/voters?limit=${bad}`);
      expect(status).toBe(400);
      expect(headers.get("content-type")).toBe("application/problem+json");
      expect(body).toMatchObject({ code: "invalid_parameter", errors: [{ parameter: "limit" }] });
    }
  });
});

describe("log scans", () => {
  it.each([1, 3])("groups a round's reveals correctly when the logs come in %i-block ranges", async (chunk) => {
    const { db, close } = await freshDb();
    try {
      const ctx = createOracleContext(
        `chunk-${chunk}`,
        { ...config, logChunkSize: { ethereum: BigInt(chunk), polygon: BigInt(chunk) } },
        async () => db,
      );
      const target = votingScan(ctx.config);
      const head = await ctx.clients.ethereum.getBlockNumber();
      const before = ctx.clients.rpcCalls.ethereum;
      const result = await advanceScan(ctx, target, head);
      expect(result).toMatchObject({ complete: true, scannedTo: head });
      expect(ctx.clients.rpcCalls.ethereum - before).toBe(Math.ceil(Number(head + 1n) / chunk));
      const round = chains.expected.multi_block_round;
      const reveals = await db.oracleVote.findMany({ where: { roundId: round, revealed: true } });
      const blocks = [...new Set(reveals.map((r) => r.blockNumber))].sort();
      // The round's reveals sit in blocks that fall into different ranges, so its row was built across ranges.
      const rangesOf = new Set(blocks.map((b) => b / BigInt(chunk)));
      expect(rangesOf.size).toBeGreaterThan(1);
      // No reveal text is stored: the reveals live only as compact rows of oracle_votes.
      expect(await db.oracleLog.count({ where: { topic0: TOPICS.voteRevealed } })).toBe(0);
      const groups = new Map((await db.oracleRound.findMany()).map((r) => [r.roundId, r]));
      for (const e of chains.expected.rounds.filter((r) => r.reveal_count > 0)) {
        expect(groups.get(e.round_id)).toMatchObject({ reveals: e.reveal_count, uniqueRevealers: e.unique_revealers });
      }
      const snapshot = await loadRounds(ctx, await indexedHead(ctx, "ethereum"));
      snapshot.rounds.forEach((r, i) => expect(r).toMatchObject(chains.expected.rounds[i]));
      // A second scan with no new block fetches no logs.
      const again = ctx.clients.rpcCalls.ethereum;
      await advanceScan(ctx, target, head);
      expect(ctx.clients.rpcCalls.ethereum).toBe(again);
    } finally {
      await close();
    }
  });

  it("a cold request runs the first indexer pass; warm requests make no RPC call at all, even when the answer is old", async () => {
    const { db, close } = await freshDb();
    try {
      const ctx = createOracleContext("rpc-count", config, async () => db);
      const blocks = chains.expected.blocks.ethereum;
      const chunk = Number(config.logChunkSize.ethereum);
      const calls = () => ctx.clients.rpcCalls.ethereum + ctx.clients.rpcCalls.polygon;
      const cold = await getOracleVoters({ limit: 50 }, ctx);
      expect(cold.body.meta.cache).toBe("miss");
      expect(cold.body.data.length).toBe(chains.expected.voters.length);
      const coldCalls = calls();
      expect(ctx.clients.rpcCallsByMethod.ethereum.eth_getLogs).toBe(Math.ceil(blocks / chunk));
      for (const read of [
        () => getOracleVoters({ limit: 10 }, ctx),
        () => getOracleSummary(ctx),
        () => getOracleVoters({ limit: 3 }, ctx),
      ]) {
        const warm = await read();
        expect(warm.body.meta.cache).toBe("hit");
      }
      expect(calls() - coldCalls).toBe(0);
      // An answer older than the indexer interval is still served as stored (no call on the request path); the pass
      // it starts runs in the background.
      const now = Date.now();
      vi.spyOn(Date, "now").mockReturnValue(now + (config.indexIntervalS + 1) * 1000);
      const before = calls();
      const old = await getOracleVoters({ limit: 10 }, ctx);
      const onRequestPath = calls() - before;
      vi.restoreAllMocks();
      expect(old.body.meta.cache).toBe("hit");
      expect(onRequestPath).toBe(0);
      const background = await runIndexerPass(ctx);
      expect(background.status).toBe("ok");
      console.log(
        `[rpc-count] ${blocks} blocks, chunk ${chunk}: cold pass=${coldCalls} calls ${JSON.stringify(ctx.clients.rpcCallsByMethod)}, ` +
          `warm=0, background pass=${JSON.stringify(background.rpc_calls)}`,
      );
    } finally {
      vi.restoreAllMocks();
      await close();
    }
  });
});

describe("RPC failures", () => {
  it("keeps serving the stored answer while the RPC is down, marked stale once it is older than 10 minutes", async () => {
    const proxy = await startRpcProxy(chains.ethRpcUrl);
    const { db, close } = await freshDb();
    try {
      setDefaultOracleContext(createOracleContext("flaky", { ...config, ethRpcUrl: proxy.url, rpcTimeoutMs: 1_000 }, async () => db));
      const fresh = await callHandler(votersGET, "/api/oracle/voters");
      expect(fresh.body.meta.cache).toBe("miss");
      proxy.set("down");
      const now = Date.now();
      vi.spyOn(Date, "now").mockReturnValue(now + 6 * 60_000);
      const hit = await callHandler(votersGET, "/api/oracle/voters");
      expect(hit.status).toBe(200);
      expect(hit.body.meta.cache).toBe("hit");
      vi.spyOn(Date, "now").mockReturnValue(now + 16 * 60_000);
      const stale = await callHandler(votersGET, "/api/oracle/voters");
      expect(stale.status).toBe(200);
      expect(stale.body.meta.cache).toBe("stale");
      expect(stale.body.data).toEqual(fresh.body.data);
      expect(stale.body.meta.as_of).toBe(fresh.body.meta.as_of);
    } finally {
      vi.restoreAllMocks();
      setDefaultOracleContext(createOracleContext("local-chain", config));
      await proxy.close();
      await close();
    }
  });

  it("answers 502 on a cold request when the RPC refuses, 504 when it hangs, for every endpoint", async () => {
    const proxy = await startRpcProxy(chains.ethRpcUrl);
    try {
      proxy.set("down");
      setDefaultOracleContext(
        createOracleContext("dead", { ...config, ethRpcUrl: proxy.url, polygonRpcUrl: proxy.url, rpcTimeoutMs: 500 }),
      );
      for (const [handler, path] of [
        [summaryGET, "/api/oracle/summary"],
        [disputesGET, "/api/oracle/disputes"],
        [roundsGET, "/api/oracle/rounds"],
        [votersGET, "/api/oracle/voters"],
      ] as const) {
        const { status, body } = await callHandler(handler, path);
        expect(status, path).toBe(502);
        expect(body.code).toBe("upstream_unavailable");
      }
      proxy.set("hang");
      setDefaultOracleContext(
        createOracleContext("hung", { ...config, ethRpcUrl: proxy.url, polygonRpcUrl: proxy.url, rpcTimeoutMs: 300 }),
      );
      const started = Date.now();
      const { status, body } = await callHandler(summaryGET, "/api/oracle/summary");
      expect(status).toBe(504);
      expect(body.code).toBe("upstream_timeout");
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      setDefaultOracleContext(createOracleContext("local-chain", config));
      await proxy.close();
    }
  });

  it("the service throws the mapped ApiError, not a raw viem error", async () => {
    const ctx = createOracleContext("refused", { ...config, ethRpcUrl: "http://127.0.0.1:9", rpcTimeoutMs: 500 });
    await expect(getOracleSummary(ctx)).rejects.toMatchObject({ code: "upstream_unavailable", status: 502 });
  });
});
