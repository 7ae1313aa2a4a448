// The whole join offline: the local chains dispute questions the Polymarket simulator lists (sim/polymarket/
// disputed.ts), the sampler stores the open markets, and /api/oracle/disputes finds every seeded Polymarket dispute's
// market: standard ones by questionID, neg-risk ones by negRiskRequestID, the closed one through Gamma.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveProxyWallet, deriveSafeWallet } from "@/lib/resolution/wallets";
import { DISPUTED_QUESTIONS, stakerAddress } from "@/sim/polymarket/disputed";
import { type Stack, startStack } from "../../helpers/stack";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
  expect((await stack.samplePass()).status).toBe(200);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

interface Row {
  id: string;
  title: string;
  question_id: string;
  proposed_at: string | null;
  proposed_price: string;
  market: { question: string; condition_id: string; outcomes: string[] } | null;
  market_join: string | null;
  market_missing_reason: string | null;
  proposed_outcome: string | null;
  probability_at_proposal: number | null;
  probability_at_dispute: number | null;
  probability_now: number | null;
  probability_sources: { at_proposal: string | null; at_dispute: string | null; now: string | null };
  value_at_stake_usd: number | null;
  value_at_stake_basis: string | null;
}

describe("disputes joined to markets in one offline world", () => {
  it("finds the market of every seeded Polymarket dispute, with prices around it and the value at stake", async () => {
    const res = await fetch(`${stack.app.url}/api/oracle/disputes`, { headers: { authorization: `Bearer ${stack.key}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Row[]; meta: { joined_to_market: number } };
    expect(body.data).toHaveLength(stack.chains.expected.disputes.length);
    expect(body.meta.joined_to_market).toBe(body.data.length);
    const byKey = new Map(stack.chains.expected.disputes.map((d) => [d.title, d.key]));
    for (const row of body.data) {
      const question = DISPUTED_QUESTIONS.find((q) => q.key === byKey.get(row.title))!;
      expect(row.market?.question, row.title).toBe(question.title);
      expect(row.market_missing_reason).toBeNull();
      expect(row.market_join).toBe(question.negRisk ? "neg_risk_request_id" : "question_id");
      expect(row.proposed_outcome).toBe(row.proposed_price === "1" ? "Yes" : "No");
      // The chains' world lies months before the sampler's first sample: the CLOB's history answers.
      expect(row.probability_at_dispute).toBeGreaterThan(0);
      expect(row.probability_sources.at_dispute).toBe("clob");
      if (row.proposed_at) expect(row.probability_at_proposal).toBeGreaterThan(0);
      expect(row.probability_now).not.toBeNull();
      // The market's open interest, as the Data API gives it (the world trades on: within 5 % of a fresh read).
      expect(row.value_at_stake_basis).toBe("open_interest");
      const oi = (await (await fetch(`${stack.sim.dataUrl}/v2/oi?condition=${row.market!.condition_id}`)).json()) as {
        data: { value: number }[];
      };
      expect(row.value_at_stake_usd).toBeGreaterThan(0);
      expect(Math.abs(row.value_at_stake_usd! - oi.data[0].value)).toBeLessThanOrEqual(0.05 * oi.data[0].value);
    }
    // The settled question's market is closed: not stored by the sampler, found through Gamma's closed markets.
    const closed = body.data.find((r) => byKey.get(r.title) === "Q1")!;
    expect(closed.probability_now).toBe(1);
    expect(body.data.filter((r) => r.proposed_at === null).map((r) => byKey.get(r.title))).toEqual(["Q7"]);
  });

  it("shows one dispute with its price series, the vote, holders per side and the voters holding positions", async () => {
    const get = (path: string) => fetch(`${stack.app.url}${path}`, { headers: { authorization: `Bearer ${stack.key}` } });
    const list = (await (await get("/api/oracle/disputes")).json()) as { data: Row[] };
    const q1Title = DISPUTED_QUESTIONS.find((q) => q.key === "Q1")!.title;
    const q1 = list.data.find((r) => r.title === q1Title)!;
    const res = await get(`/api/oracle/disputes/${q1.id}`);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as {
      data: Row & {
        series: { t: number; p: number; source: string }[];
        vote: { rounds: { round_id: number; reveals: number; votes: { outcome: string; voters: number }[] }[]; resolved_outcome: string };
        holders: { outcome: string; holders: { wallet: string; wallet_url: string; shares: number }[] }[];
        voter_positions: {
          voter: string;
          positions: { wallet: string; wallet_url: string; via: string; outcome: string; certainty: string }[];
        }[];
      };
    };
    expect(data.market?.question).toBe(q1Title);
    // From a day before the proposal: the CLOB's history (the sampler began long after).
    expect(data.series[0].t).toBeLessThanOrEqual(Date.parse(data.proposed_at!) / 1000 - 86_400 + 3600);
    expect(data.series.every((p) => p.p >= 0 && p.p <= 1)).toBe(true);
    // The seed: four stakers revealed Yes on Q1 in one round, and the DVM resolved it Yes.
    expect(data.vote.rounds).toHaveLength(1);
    expect(data.vote.rounds[0]).toMatchObject({ reveals: 4, votes: [{ outcome: "Yes", voters: 4 }] });
    expect(data.vote.resolved_outcome).toBe("Yes");
    expect(data.holders.map((h) => h.outcome)).toEqual(["Yes", "No"]);
    // Staker 1 holds Yes through its proxy wallet, staker 2 No through its Safe, staker 3 Yes from its own address.
    const positions = Object.fromEntries(
      data.voter_positions.map((v) => [v.voter, v.positions.map((p) => [p.via, p.outcome, p.wallet, p.certainty])]),
    );
    expect(positions).toEqual({
      [stakerAddress(1)]: [["proxy", "Yes", deriveProxyWallet(stakerAddress(1)), "certain"]],
      [stakerAddress(2)]: [["safe", "No", deriveSafeWallet(stakerAddress(2)), "certain"]],
      [stakerAddress(3)]: [["same_address", "Yes", stakerAddress(3), "certain"]],
    });
    // Every wallet shown links to its wallet resource (docs/wallets.md).
    for (const p of data.voter_positions.flatMap((v) => v.positions))
      expect(p.wallet_url).toBe(`/api/predmkt/wallets/${p.wallet.toLowerCase()}`);
    for (const h of data.holders.flatMap((side) => side.holders))
      expect(h.wallet_url).toBe(`/api/predmkt/wallets/${h.wallet.toLowerCase()}`);

    expect((await get(`/api/oracle/disputes/0x${"ab".repeat(32)}`)).status).toBe(404);
    const bad = await get("/api/oracle/disputes/nothex");
    expect(bad.status).toBe(400);
  });

  it("gives every disputed market its resolution from the oracle index, and filters events by it", async () => {
    const get = async <T>(path: string) =>
      (await (await fetch(`${stack.app.url}${path}`, { headers: { authorization: `Bearer ${stack.key}` } })).json()) as T;
    const list = await get<{ data: (Row & { status: string; dvm: { round_id: number | null } | null })[] }>("/api/oracle/disputes");
    const open = list.data.filter((d) => d.title !== DISPUTED_QUESTIONS.find((q) => q.key === "Q1")!.title);
    expect(new Set(open.map((d) => d.status))).toEqual(new Set(["disputed", "queued", "voting", "resolved"]));
    // The local chains' Polymarket questions are asked by the UMA CTF adapter, which resets a question on its first
    // dispute (UmaCtfAdapter.priceDisputed): such a market waits for a new proposal, whatever the vote decides.
    const wasReset = (d: object) => (d as { question_reset?: boolean }).question_reset === true;
    expect(open.filter(wasReset).length).toBeGreaterThan(0);
    for (const dispute of open) {
      const status = wasReset(dispute) ? "reset" : dispute.status;
      const slug = (dispute.market as unknown as { event_slug: string }).event_slug;
      const event = await get<{
        data: { resolution_statuses: string[]; markets: { condition_id: string; resolution: Record<string, unknown> }[] };
      }>(`/api/predmkt/events/${slug}`);
      const market = event.data.markets.find((m) => m.condition_id === dispute.market!.condition_id)!;
      expect(market.resolution, dispute.title).toEqual({
        status,
        proposed_outcome: dispute.proposed_outcome,
        proposed_at: dispute.proposed_at,
        disputed_at: (dispute as unknown as { disputed_at: string }).disputed_at,
        settled_at: null,
        dispute_id: dispute.id,
        vote_round: dispute.status === "disputed" && dispute.dvm === null ? null : (dispute.dvm?.round_id ?? null),
        // UMA's own state names, the same on the dispute and on its market (docs/oracle-facts.md, "Vocabulary").
        oo_state: wasReset(dispute) ? "Requested" : (dispute as unknown as { oo_state: string }).oo_state,
        dvm_status: (dispute as unknown as { dvm_status: string | null }).dvm_status,
        // Nothing outside the vote in the seeded world (tests/integration/resolution/outcomes.test.ts plays it).
        outcome: null,
      });
      expect(event.data.resolution_statuses).toEqual([status]);
      // Siblings of a neg-risk market are not in dispute.
      for (const other of event.data.markets.filter((m) => m !== market)) expect(other.resolution.status).toBe("none");
      const filtered = await get<{ data: { slug: string }[] }>(`/api/predmkt/events?resolution=${status}&limit=500`);
      expect(filtered.data.map((e) => e.slug)).toContain(slug);
      const none = await get<{ data: { slug: string }[] }>(
        `/api/predmkt/events?resolution=none&q=${encodeURIComponent(dispute.market!.question.slice(0, 12))}`,
      );
      expect(none.data.map((e) => e.slug)).not.toContain(slug);
    }
  });
});
