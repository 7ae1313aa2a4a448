// A small upstream world for the stub server, built from the real recorded event: one event with two markets,
// holders for both outcome tokens, trades on both markets, and a price history per token.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Stub } from "./stub-server";

const FIXTURES = path.resolve(__dirname, "../../../../shared/fixtures/polymarket");
const fixture = (name: string): any => JSON.parse(readFileSync(path.join(FIXTURES, name), "utf8"));

export const event = fixture("gamma_events_by_slug__nautilus_gamma_event.json")[0];
export const markets = event.markets as Record<string, string>[];
export const tokensOf = (m: Record<string, string>): string[] => JSON.parse(m.clobTokenIds);

const holdersFixture = fixture("data_api_holders_token_group__tnn225_poly-market-maker.json");
const tradeRow = fixture("data_api_trades_v1__swift_test_real_capture.json")[1];

export function holdersFor(m: Record<string, string>) {
  return tokensOf(m).map((token, outcomeIndex) => ({
    token,
    holders: holdersFixture.holders.slice(0, 5).map((h: Record<string, unknown>, i: number) => ({
      ...h,
      asset: token,
      outcomeIndex,
      amount: 1000 - i * 100 - outcomeIndex,
      proxyWallet: `0x${String(outcomeIndex)}${String(i).padStart(39, "0")}`,
    })),
  }));
}

/** 12 trades alternating over both markets and sides, sizes 10..120 shares at 0.5 → 5..60 USD, newest first. */
export const trades = Array.from({ length: 12 }, (_, i) => {
  const m = markets[i % 2];
  return {
    ...tradeRow,
    conditionId: m.conditionId,
    asset: tokensOf(m)[0],
    slug: m.slug,
    title: m.question,
    eventSlug: event.slug,
    side: i % 3 === 0 ? "SELL" : "BUY",
    size: 10 * (i + 1),
    price: 0.5,
    timestamp: 1_790_000_000 - i * 60,
    transactionHash: `0x${String(i).padStart(64, "0")}`,
  };
});

function historyFor(token: string) {
  const base = Number(token.slice(-2)) / 100;
  return { history: [0, 1, 2].map((k) => ({ t: 1_790_000_000 + k * 3600, p: base })) };
}

export function installWorld(stub: Stub) {
  stub.route(`/gamma/events/slug/${event.slug}`, { json: event });
  for (const m of markets) stub.route(`/gamma/markets/${m.id}`, { json: { ...m, events: [{ id: event.id, slug: event.slug }] } });
  stub.route("/gamma/markets/keyset", (req) => ({
    json: {
      markets: markets
        .filter((m) => req.query.getAll("condition_ids").includes(m.conditionId) && String(m.closed ?? false) === req.query.get("closed"))
        .map((m) => ({ ...m, events: [{ id: event.id, slug: event.slug }] })),
    },
  }));
  stub.route("/data/holders", (req) => {
    const m = markets.find((x) => x.conditionId === req.query.get("market"));
    return { json: m ? holdersFor(m) : [] };
  });
  stub.route("/data/trades", (req) => {
    let rows = trades;
    const market = req.query.get("market");
    if (market) rows = rows.filter((t) => t.conditionId === market);
    if (req.query.get("eventId") && req.query.get("eventId") !== event.id) rows = [];
    const side = req.query.get("side");
    if (side) rows = rows.filter((t) => t.side === side);
    const min = Number(req.query.get("filterAmount") ?? 0);
    rows = rows.filter((t) => t.size * t.price >= min);
    return { json: rows.slice(0, Number(req.query.get("limit") ?? 100)) };
  });
  stub.route("/clob/prices-history", (req) => ({ json: historyFor(req.query.get("market") ?? "") }));
}
