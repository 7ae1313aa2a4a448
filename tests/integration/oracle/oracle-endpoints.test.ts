// The oracle endpoints through the real production server and its gateway, reading the seeded local chains.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalChains, startLocalChains } from "@/sim/chain";
import { createTestKey } from "../../helpers/keys";
import { type RunningApp, startApp } from "../../helpers/server";

let chains: LocalChains;
let app: RunningApp;
let key: string;

beforeAll(async () => {
  chains = await startLocalChains({ logChunkSize: 7 });
  app = await startApp({ env: chains.env });
  key = await createTestKey(app, "pro");
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await chains?.stop();
});

const get = async (path: string, withKey = true) => {
  const res = await fetch(`${app.url}${path}`, { headers: withKey ? { authorization: `Bearer ${key}` } : {} });
  return { status: res.status, headers: res.headers, body: await res.json() };
};

describe("oracle endpoints over HTTP", () => {
  it("summary, disputes, rounds and voters answer from the local chain with the seed's figures", async () => {
    const summary = await get("/api/oracle/summary");
    expect(summary.status).toBe(200);
    expect(summary.body.data).toMatchObject(chains.expected.summary);
    expect(summary.body.meta).toMatchObject({ source: "chain", as_of: chains.expected.chain_time });
    expect(summary.headers.get("x-api-tier")).toBe("pro");

    const disputes = await get("/api/oracle/disputes");
    expect(disputes.status).toBe(200);
    expect(disputes.body.data.map((d: { title: string; status: string }) => [d.title, d.status])).toEqual(
      chains.expected.disputes.map((d) => [d.title, d.status]),
    );

    const rounds = await get("/api/oracle/rounds");
    expect(rounds.status).toBe(200);
    expect(
      rounds.body.data.map((r: { round_id: number; reveal_count: number; unique_revealers: number; tokens_revealed: string }) => [
        r.round_id,
        r.reveal_count,
        r.unique_revealers,
        r.tokens_revealed,
      ]),
    ).toEqual(chains.expected.rounds.map((r) => [r.round_id, r.reveal_count, r.unique_revealers, r.tokens_revealed]));

    const voters = await get("/api/oracle/voters?limit=4");
    expect(voters.status).toBe(200);
    expect(
      voters.body.data.map((v: { rank: number; address: string; stake: string; delegate: string | null }) => [
        v.rank,
        v.address,
        v.stake,
        v.delegate,
      ]),
    ).toEqual(chains.expected.voters.slice(0, 4).map((v) => [v.rank, v.address, v.stake, v.delegate]));
    expect(voters.headers.get("cache-control")).toMatch(/^private, max-age=\d+$/);
  });

  it("refuses requests without a key and bad limits with problem+json", async () => {
    expect((await get("/api/oracle/voters", false)).status).toBe(401);
    const bad = await get("/api/oracle/voters?limit=1000");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "invalid_parameter", errors: [{ parameter: "limit" }] });
  });

  it("lists the four endpoints in the OpenAPI document", async () => {
    const doc = await get("/api/openapi.json", false);
    for (const p of ["/api/oracle/summary", "/api/oracle/disputes", "/api/oracle/rounds", "/api/oracle/voters"])
      expect(doc.body.paths[p]).toBeDefined();
  });

  it("answers 502 problem+json once the chains are gone and nothing is cached", async () => {
    await chains.stop();
    // The first server holds fresh cached answers; a new server process has none, so its read must fail cleanly.
    const cold = await startApp({ env: chains.env });
    try {
      const coldKey = await createTestKey(cold, "pro");
      const res = await fetch(`${cold.url}/api/oracle/summary`, { headers: { authorization: `Bearer ${coldKey}` } });
      expect(res.status).toBe(502);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect((await res.json()).code).toBe("upstream_unavailable");
    } finally {
      await cold.stop();
    }
  });
});
