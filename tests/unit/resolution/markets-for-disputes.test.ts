// Disputes joined to markets over the embedded database and a stand-in for Polymarket's hosts: a stored market
// (our samples), a closed market only Gamma still knows (the CLOB's history), a dispute with no text, and an
// upstream failure that degrades one dispute's fields and nothing else.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Address, Hex } from "viem";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { STANDARD_UMA_CTF_ADAPTERS } from "@/lib/resolution/addresses";
import { withMarkets } from "@/lib/resolution/markets-for-disputes";
import { appendInitializer, conditionIdOf, questionIdOf } from "@/lib/resolution/ids";
import { clearLocalCache } from "@/lib/upstream";
import { pointUpstreamAt, type Stub, startStub } from "../upstream/stub-server";
import { stringToHex } from "viem";

const ADAPTER: Address = STANDARD_UMA_CTF_ADAPTERS[2];
const NOW = 1_790_000_000;
const PROPOSED = NOW - 3 * 3600;
const DISPUTED = PROPOSED + 1800;
const iso = (s: number) => new Date(s * 1000).toISOString();
const qid = (title: string): Hex => questionIdOf(appendInitializer(stringToHex(`q: title: ${title}, description: d`), ADAPTER));
const open = { qid: qid("Will the stored market resolve?"), tokens: ["111", "112"] };
const closed = { qid: qid("Will the closed market resolve?"), tokens: ["221", "222"] };
const cond = (q: Hex) => conditionIdOf(ADAPTER, q);
const dispute = (questionId: Hex | null) => ({
  id: `0x${"d".repeat(64)}`,
  question_id: questionId,
  requester: ADAPTER,
  proposed_price: "1",
  proposed_at: iso(PROPOSED),
  disputed_at: iso(DISPUTED),
});

let db: Db;
let stub: Stub;
let restore: () => void;

beforeAll(async () => {
  db = await getDb();
  stub = await startStub();
  restore = pointUpstreamAt(stub.url, { UPSTREAM_TIMEOUT_MS: 2000, UPSTREAM_MAX_RETRIES: 0 });
  await db.market.create({
    data: {
      id: "500",
      conditionId: cond(open.qid),
      eventId: "50",
      eventSlug: "stored-event",
      slug: "stored-market",
      question: "Will the stored market resolve?",
      active: true,
      closed: false,
      open: true,
      seenAt: new Date(NOW * 1000),
    },
  });
  const yes = await db.outcome.create({ data: { tokenId: open.tokens[0], marketId: "500", index: 0, name: "Yes", price: 0.25 } });
  await db.outcome.create({ data: { tokenId: open.tokens[1], marketId: "500", index: 1, name: "No", price: 0.75 } });
  await db.priceSample.createMany({
    data: [
      { outcomeId: yes.id, resolutionS: 900, t: new Date((PROPOSED - 2 * 3600) * 1000), price: 0.5 },
      { outcomeId: yes.id, resolutionS: 60, t: new Date((PROPOSED + 60) * 1000), price: 0.875 },
      { outcomeId: yes.id, resolutionS: 60, t: new Date((DISPUTED + 60) * 1000), price: 0.25 },
    ],
  });
  // Gamma's keyset list leaves closed markets out unless closed=true is sent.
  stub.route("/gamma/markets/keyset", (req) => ({
    json: {
      markets:
        req.query.get("closed") === "true" && req.query.getAll("condition_ids").includes(cond(closed.qid))
          ? [
              {
                id: "600",
                conditionId: cond(closed.qid),
                slug: "closed-market",
                question: "Will the closed market resolve?",
                closed: true,
                outcomes: '["Up", "Down"]',
                outcomePrices: '["0.5", "0.5"]',
                clobTokenIds: JSON.stringify(closed.tokens),
                events: [{ id: "60", slug: "closed-event" }],
              },
            ]
          : [],
    },
  }));
  stub.route("/clob/prices-history", (req) => ({
    json: {
      history:
        req.query.get("market") === closed.tokens[0]
          ? [
              { t: PROPOSED - 7200, p: 0.3 },
              { t: DISPUTED - 60, p: 0.6 },
            ]
          : [],
    },
  }));
  stub.route("/data/holders", (req) =>
    req.query.get("market") === cond(open.qid)
      ? {
          json: [
            {
              token: open.tokens[0],
              holders: [{ proxyWallet: "0x00000000000000000000000000000000000000a1", amount: 1000, outcomeIndex: 0 }],
            },
            {
              token: open.tokens[1],
              holders: [{ proxyWallet: "0x00000000000000000000000000000000000000a2", amount: 400, outcomeIndex: 1 }],
            },
          ],
        }
      : { status: 503, json: { error: "unavailable" } },
  );
});

beforeEach(() => clearLocalCache());

afterAll(async () => {
  restore();
  await stub.close();
  await closeDb();
});

describe("disputes with their markets", () => {
  it("joins stored and Gamma-only markets, reads probabilities from our samples and the CLOB history, and counts a failed holders read", async () => {
    const { disputes, joined, degraded } = await withMarkets([dispute(open.qid), dispute(closed.qid), dispute(null)], { db, now: NOW });
    expect(joined).toBe(2);
    expect(disputes[0]).toMatchObject({
      market: { id: "500", slug: "stored-market", event_slug: "stored-event", outcomes: ["Yes", "No"] },
      proposed_outcome: "Yes",
      probability_at_proposal: 0.5,
      probability_at_dispute: 0.875,
      probability_now: 0.25,
      probability_sources: { at_proposal: "sampled", at_dispute: "sampled", now: "sampled" },
      value_at_stake_usd: 550,
      value_at_stake_basis: "top_holders",
    });
    expect(disputes[1]).toMatchObject({
      market: { id: "600", event_slug: "closed-event", outcomes: ["Up", "Down"] },
      proposed_outcome: "Up",
      probability_at_proposal: 0.3,
      probability_at_dispute: 0.6,
      probability_sources: { at_proposal: "clob", at_dispute: "clob" },
      // Its holders read failed: no value, and the dispute is counted as degraded.
      value_at_stake_usd: null,
    });
    expect(disputes[2]).toMatchObject({ market: null, market_missing_reason: "no_question_text", proposed_outcome: "p2 (1)" });
    expect(degraded).toBe(1);
  });

  it("values a market at its open interest (v2, else v1) and falls back to the holders only where the upstream has none", async () => {
    const missing = { status: 404, json: { error: "not found" } };
    try {
      stub.route("/data/v2/oi", (req) => ({
        json: {
          data:
            req.query.get("condition") === cond(open.qid)
              ? [{ condition_id: cond(open.qid).toUpperCase().replace("0X", "0x"), value: 12345.678 }]
              : [],
        },
      }));
      const v2 = await withMarkets([dispute(open.qid), dispute(closed.qid)], { db, now: NOW });
      expect(v2.disputes[0]).toMatchObject({ value_at_stake_usd: 12345.68, value_at_stake_basis: "open_interest" });
      // No open interest for the closed market: its holders are read, and that read fails.
      expect(v2.disputes[1]).toMatchObject({ value_at_stake_usd: null, value_at_stake_basis: null });
      expect(v2.degraded).toBe(1);

      // A deployment without v2: the v1 body (bare array, `market`) answers.
      clearLocalCache();
      stub.route("/data/v2/oi", missing);
      stub.route("/data/oi", (req) => ({
        json: req.query.get("market") === cond(open.qid) ? [{ market: cond(open.qid), value: "99.5" }] : [],
      }));
      const v1 = await withMarkets([dispute(open.qid)], { db, now: NOW });
      expect(v1.disputes[0]).toMatchObject({ value_at_stake_usd: 99.5, value_at_stake_basis: "open_interest" });
    } finally {
      stub.route("/data/v2/oi", missing);
      stub.route("/data/oi", missing);
    }
  });
});
