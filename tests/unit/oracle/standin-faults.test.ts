// Every limit of the public-RPC stand-in (sim/rpc/standin.ts) against every oracle endpoint: a cold index built
// behind each limit gives the seed's exact figures (a limit that smaller or slower requests can satisfy is never an
// error); pruned history fails a cold backfill with a clear 502 but not an index already built; a reorg of the last
// blocks is detected (cursors rewound) and the endpoints show the new chain.
import { createWalletClient, getAddress, http, parseUnits, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { mainnet } from "viem/chains";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

// The disputes join asks Gamma (a closed port here) for the markets the sampler never stored: that fails whatever the
// retries, and retrying with backoff only adds seconds to each test (the join itself: tests/unit/resolution).
vi.hoisted(() => {
  process.env.UPSTREAM_MAX_RETRIES = "0";
});
import { GET as disputesGET } from "@/app/api/oracle/disputes/route";
import { GET as roundsGET } from "@/app/api/oracle/rounds/route";
import { GET as summaryGET } from "@/app/api/oracle/summary/route";
import { GET as votersGET } from "@/app/api/oracle/voters/route";
import { loadEnv } from "@/lib/env";
import { type OracleConfig, oracleConfigFromEnv } from "@/lib/oracle/config";
import { createOracleContext, type OracleContext, setDefaultOracleContext } from "@/lib/oracle/context";
import { runIndexerPass } from "@/lib/oracle/indexer";
import { type LocalChains, startLocalChains } from "@/sim/chain";
import { compileContracts } from "@/sim/chain/compile";
import { NO_LIMITS, type StandinLimits } from "@/sim/rpc/standin";
import { callHandler, freshDb } from "./helpers";

// Each test indexes real local chains (anvil) from scratch: on a loaded shared machine that takes tens of seconds.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let chains: LocalChains;
let config: OracleConfig;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  // 7-block ranges: every range cap below forces the scan to cut its ranges.
  chains = await startLocalChains({ logChunkSize: 7 });
  config = oracleConfigFromEnv(loadEnv({ ...process.env, ...chains.env }));
}, 60_000);

afterEach(async () => {
  for (const s of Object.values(chains.standins)) {
    s.configure(NO_LIMITS);
    s.resetCounters();
  }
  setDefaultOracleContext(undefined);
  while (closers.length) await closers.pop()!();
});

afterAll(async () => {
  await chains?.stop();
});

async function freshContext(id: string, overrides: Partial<OracleConfig> = {}): Promise<OracleContext> {
  const { db, close } = await freshDb();
  closers.push(close);
  const ctx = createOracleContext(id, { ...config, ...overrides }, async () => db);
  setDefaultOracleContext(ctx);
  return ctx;
}

const limitBoth = (limits: Partial<StandinLimits>) => {
  chains.standins.ethereum.configure(limits);
  chains.standins.polygon.configure(limits);
};

async function expectSeedFigures(label: string) {
  const summary = await callHandler(summaryGET, "/api/oracle/summary");
  expect(summary.status, `${label} summary: ${JSON.stringify(summary.body).slice(0, 300)}`).toBe(200);
  expect(summary.body.data, `${label}: ${JSON.stringify(summary.body)}`).toMatchObject(chains.expected.summary);
  const disputes = await callHandler(disputesGET, "/api/oracle/disputes");
  expect(disputes.status, label).toBe(200);
  expect(
    disputes.body.data.map((d: Record<string, unknown>) => [d.title, d.status, d.roll_count, d.disputed_at, d.unread]),
    label,
  ).toEqual(chains.expected.disputes.map((d) => [d.title, d.status, d.roll_count, d.disputed_at, []]));
  const rounds = await callHandler(roundsGET, "/api/oracle/rounds");
  expect(rounds.status, label).toBe(200);
  rounds.body.data.forEach((r: Record<string, unknown>, i: number) => expect(r, label).toMatchObject(chains.expected.rounds[i]));
  expect(rounds.body.data, label).toHaveLength(chains.expected.rounds.length);
  const voters = await callHandler(votersGET, "/api/oracle/voters?limit=500");
  expect(voters.status, label).toBe(200);
  expect(
    voters.body.data.map((v: Record<string, unknown>) => [v.rank, v.address, v.stake]),
    label,
  ).toEqual(chains.expected.voters.map((v) => [v.rank, v.address, v.stake]));
}

describe("the oracle behind each public-RPC limit (cold index, then every endpoint)", () => {
  it.each([
    { label: "Alchemy 3-block range cap", limits: { provider: "alchemy", maxBlockRange: 3 } },
    { label: "Infura 3-block range cap", limits: { provider: "infura", maxBlockRange: 3 } },
    { label: "QuickNode 3-block range cap (HTTP 413)", limits: { provider: "quicknode", maxBlockRange: 3 } },
    { label: "reth 3-block range cap", limits: { provider: "reth", maxBlockRange: 3 } },
    { label: "Alchemy 10-log result cap", limits: { provider: "alchemy", maxResults: 10 } },
    { label: "Infura 10-log result cap", limits: { provider: "infura", maxResults: 10 } },
    { label: "reth 10-log result cap", limits: { provider: "reth", maxResults: 10 } },
    { label: "2M eth_call gas cap", limits: { gasCap: 2_000_000 } },
    { label: "6,000-byte request body limit", limits: { maxBodyBytes: 6_000 } },
  ] satisfies { label: string; limits: Partial<StandinLimits> }[])("$label", async ({ label, limits }) => {
    limitBoth(limits);
    // Result caps bite on wide ranges: start those scans at 1,000 blocks (the whole chain in one range).
    const wide = limits.maxResults !== undefined ? { logChunkSize: { ethereum: 1_000n, polygon: 1_000n } } : {};
    await freshContext(`limit-${label}`, wide);
    await expectSeedFigures(label);
    const applied = Object.values(chains.standins).reduce((n, s) => {
      const c = s.counters();
      return n + [...Object.values(c.refused), ...Object.values(c.capped)].reduce((a, b) => a + b, 0);
    }, 0);
    // The limit was really hit (and worked around), not merely configured.
    expect(applied, `${label}: refusals`).toBeGreaterThan(0);
  });

  it("a body limit smaller than one request: that row is marked (unread) and counted, the rest of every answer is exact", async () => {
    limitBoth({ maxBodyBytes: 1_500 });
    await freshContext("body-1500");
    const disputes = await callHandler(disputesGET, "/api/oracle/disputes");
    expect(disputes.status).toBe(200);
    const degraded = disputes.body.data.filter((d: { unread: string[] }) => d.unread.length > 0);
    expect(degraded.length).toBeGreaterThan(0);
    expect(disputes.body.meta.degraded_rows).toBe(degraded.length);
    // A long question text makes its own getState and getPriceRequestStatuses calls too big: both are marked.
    for (const row of degraded) expect(["oo_state", "dvm_status"]).toEqual(expect.arrayContaining(row.unread));
    // Every row that could be read is exactly the seed's; the degraded ones keep their identity and text.
    const expectedByTitle = new Map(chains.expected.disputes.map((d) => [d.title, d]));
    for (const row of disputes.body.data) {
      const e = expectedByTitle.get(row.title)!;
      expect(e, row.title).toBeDefined();
      if (row.unread.length === 0) expect([row.status, row.roll_count], row.title).toEqual([e.status, e.roll_count]);
      expect([row.proposer, row.disputer, row.disputed_at], row.title).toEqual([e.proposer, e.disputer, e.disputed_at]);
    }
    for (const [handler, path] of [
      [roundsGET, "/api/oracle/rounds"],
      [votersGET, "/api/oracle/voters"],
    ] as const) {
      expect((await callHandler(handler, path)).status, path).toBe(200);
    }
  });

  it("a rate limit (429 above 8 requests/s): the app paces itself below it", async () => {
    limitBoth({ maxRequestsPerSecond: 8 });
    await freshContext("rate-limit", { maxRequestsPerSecond: 7 });
    await expectSeedFigures("rate limit");
    expect(chains.standins.ethereum.counters().refused.rate_limit ?? 0).toBe(0);
  }, 60_000);

  it("pruned history: a cold backfill fails with a clear 502; an index already built keeps answering and advancing", async () => {
    limitBoth({ historyBlocks: 10 });
    await freshContext("pruned-cold");
    const cold = await callHandler(roundsGET, "/api/oracle/rounds");
    expect(cold.status).toBe(502);
    expect(cold.body).toMatchObject({ code: "upstream_unavailable" });
    expect(cold.body.detail).toMatch(/pruned/i);
    limitBoth(NO_LIMITS);
    const ctx = await freshContext("pruned-warm");
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    limitBoth({ historyBlocks: 10 });
    const next = await runIndexerPass(ctx);
    expect(next.status).toBe("ok");
    await expectSeedFigures("pruned history, warm");
  });
});

describe("reorgs", () => {
  it("a reorg of the last blocks is detected, the cursors rewound, and the endpoints show the new chain", async () => {
    const ctx = await freshContext("reorg");
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    // A new staker in a new block: indexed, then dropped by a reorg.
    const wallet = createWalletClient({
      chain: mainnet,
      transport: http(chains.anvilUrls.ethereum),
      // anvil's first dev account (public test key).
      account: privateKeyToAccount("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"),
    }).extend(publicActions);
    const newcomer = getAddress("0x00000000000000000000000000000000000c0ffe");
    const hash = await wallet.writeContract({
      address: chains.addresses.votingV2,
      abi: compileContracts().MockVotingV2.abi,
      functionName: "seedStakes",
      args: [[newcomer], [parseUnits("123456789", 18)]],
      gas: 500_000n,
    });
    // writeContract returns once the transaction is sent; the pass below must see it mined.
    expect((await wallet.waitForTransactionReceipt({ hash })).status).toBe("success");
    // Indexed by the next pass (its Staked log is stored; the stake list itself is rebuilt at most every 5 minutes).
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    const db = await ctx.db();
    expect(
      await db.oracleLog.count({ where: { chainId: 1, topics: { has: `0x${"0".repeat(24)}${newcomer.slice(2).toLowerCase()}` } } }),
    ).toBe(1);
    const { droppedFrom } = await chains.standins.ethereum.reorg(1);
    const after = await runIndexerPass(ctx);
    expect(after.chains.ethereum.rewound_to).toBe(Number(droppedFrom) - 1);
    expect(after.snapshots.voters).toBe("built");
    expect(
      await db.oracleLog.count({ where: { chainId: 1, topics: { has: `0x${"0".repeat(24)}${newcomer.slice(2).toLowerCase()}` } } }),
    ).toBe(0);
    const voters = await callHandler(votersGET, "/api/oracle/voters?limit=500");
    expect(voters.body.data.map((v: { address: string }) => v.address)).not.toContain(newcomer);
    expect(voters.body.meta.block_number).toBeGreaterThanOrEqual(Number(droppedFrom));
    expect(voters.body.data.map((v: Record<string, unknown>) => [v.rank, v.address, v.stake])).toEqual(
      chains.expected.voters.map((v) => [v.rank, v.address, v.stake]),
    );
  });
});
