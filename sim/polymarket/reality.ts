// The real upstream's hard parts, each behind a switch (sources in sim/polymarket/SOURCES.md):
//
// - v2Share: a share of markets are Polymarket Protocol V2 markets: a 62-hex (bytes31) condition id, sometimes sent
//   padded to 64 hex; outcome ids in `positionIds` (decimal uint256 = condition << 8 | outcome) with `version: "v2"`;
//   some also still carry `clobTokenIds` (which must then be ignored). Decided when the world is built.
// - gammaClosedDefault: Gamma's market and event lists leave closed items out when `closed` is not sent; the legacy
//   offset lists `/events` and `/markets` carry Deprecation/Sunset/Warning headers.
// - junkRate: a share of list items (events, markets, trades, holders) arrive unparseable, the same items every time.
// The live feeds as a published set of measurements (a third party's, modelled here behind switches: SOURCES.md,
// "Live feeds"):
// - rtdsMakerRows: RTDS `activity`/`trades` carries the taker's fill and every maker's, the same maker rows as the Data
//   API's `taker_only=false` (makers.ts; crossing as `makerCrossOutcome` says); `orders_matched` carries the taker's
//   row only.
// - rtdsTiming: a trade's messages go out at the note's delays from the match (last_trade_price 0.09 s, RTDS
//   orders_matched 1.9 s, trades 0.2 s later; the block 2.2 s after the match), not all at the block's second.
// - rtdsEarlyShare: this share of RTDS payloads is stamped one second before the block time the Data API shows.
// - checksumWallets: RTDS sends `proxyWallet` in EIP-55 mixed case (the Data API in lower case).
// - restLag: the Data API's trade lists are rebuilt every 4 s, 2–7 s behind the block: a fill shows 3–10 s after it.
//   The user form (`/v2/trades?user=`; v1 `/trades?user=` and a user's `/activity` by inference) is rebuilt every 4 s
//   from the blocks at least 1 s old: a fill shows 1–4 s after it (research note §3.3).
// - cdnCache: Data API trade lists are cached per URL for 300 s (`Cache-Control: public, max-age=300`, `Age`,
//   `x-cache`), activity for 15 s.
// - makerCrossOutcome: maker rows (Data API `taker_only=false` and RTDS `trades` alike): 78 % on the other outcome with
//   the taker's side at the complementary price (a taker BUY Yes 0.64 filled by a maker BUY No 0.36); off, all plain.
// - rtdsSilentWithoutPingS: an RTDS connection that has not pinged for this long (≈ 360 s: the note saw a connection
//   that never pinged go silent after 6 min) gets no data until it pings again; counting from the last ping, the
//   return after a ping and the pings still answered are ours.
// - activeMarketShare / activeFramesPerS: this share of markets is active, each sending 2 × `activeFramesPerS`
//   `price_change` frames a second, one order each with both tokens' entries: the note's ≈ 48 frames/s per token
//   averaged over the 8 tokens of 4 short crypto markets (the open one and the next 3), every active market assumed
//   as busy as those (ours; order-flow.ts). A load as much as a behaviour (the share is ours), so 0 — off — even in
//   REAL_UPSTREAM: the bench turns it on (bench/live-feed.ts), as does `--active-share` on the CLI.
import { ACTIVE_PRICE_CHANGE_HZ } from "./order-flow";
import { rand } from "./random";
import type { SimMarket, World } from "./world";

export interface Reality {
  v2Share: number;
  gammaClosedDefault: boolean;
  junkRate: number;
  /** Cloudflare-style throttling at the documented rate limits (throttle.ts). */
  rateLimits: boolean;
  rtdsMakerRows: boolean;
  rtdsTiming: boolean;
  rtdsEarlyShare: number;
  checksumWallets: boolean;
  restLag: boolean;
  cdnCache: boolean;
  /** The market channel closes a socket whose send buffer passes SLOW_CONSUMER_BYTES with 1013 (ws.ts). */
  slowConsumerClose: boolean;
  /** Share of markets sending the measured order flow (order-flow.ts); 0 = one change a second, on moves. */
  activeMarketShare: number;
  /**
   * `price_change` frames a second per token of an active market, averaged over its two tokens: the market sends twice
   * this, each frame on both tokens (research note §6.1: ≈ 48 per token averaged over the 8 tokens of 4 short crypto
   * markets, the open one and the next 3).
   */
  activeFramesPerS: number;
  /**
   * Maker rows (Data API `taker_only=false` and RTDS `trades`): 78 % on the other outcome, same side, complementary
   * price (measured); the rest same outcome, opposite side, same price (an inference from how the exchange matches).
   * Off: every maker row on both feeds the plain way.
   */
  makerCrossOutcome: boolean;
  /**
   * An RTDS connection that has not pinged for this many seconds gets no data (research note §6.2: 360 s for one that
   * never pinged; counting from the last ping is ours); 0 = never.
   */
  rtdsSilentWithoutPingS: number;
}

/** What the real upstream does today, all switches on (the CLI, demo and bench default). */
export const REAL_UPSTREAM: Reality = {
  v2Share: 0.15,
  gammaClosedDefault: true,
  junkRate: 0.002,
  rateLimits: true,
  rtdsMakerRows: true,
  rtdsTiming: true,
  // 2,756 of 3,596 RTDS rows in the research note (SOURCES.md, "Live feeds").
  rtdsEarlyShare: 0.77,
  checksumWallets: true,
  restLag: true,
  cdnCache: true,
  slowConsumerClose: true,
  // Off: a load the caller sizes (the share of active markets has no source), see order-flow.ts.
  activeMarketShare: 0,
  activeFramesPerS: ACTIVE_PRICE_CHANGE_HZ,
  makerCrossOutcome: true,
  // Research note §6.2: without application PING the server stopped sending after 6 min (360 s); §0 point 3,
  // paraphrased: send PING every 5 s or the feed falls silent after 6 minutes.
  rtdsSilentWithoutPingS: 360,
};
/** Programmatic default: the plain world, switches off (tests turn on what they exercise). */
export const PLAIN_UPSTREAM: Reality = {
  v2Share: 0,
  gammaClosedDefault: false,
  junkRate: 0,
  rateLimits: false,
  rtdsMakerRows: false,
  rtdsTiming: false,
  rtdsEarlyShare: 0,
  checksumWallets: false,
  restLag: false,
  cdnCache: false,
  slowConsumerClose: false,
  activeMarketShare: 0,
  activeFramesPerS: ACTIVE_PRICE_CHANGE_HZ,
  makerCrossOutcome: false,
  rtdsSilentWithoutPingS: 0,
};

const SALT_V2 = 900;
const SALT_V2_BOTH = 901;
const SALT_V2_PADDED = 902;
const SALT_JUNK = 910;

export function parseReality(input: unknown, base: Reality): Reality {
  if (!input || typeof input !== "object") throw new Error("reality must be a JSON object");
  const r = input as Record<string, unknown>;
  const out = { ...base };
  for (const key of ["v2Share", "junkRate", "rtdsEarlyShare", "activeMarketShare"] as const) {
    if (r[key] === undefined) continue;
    const v = r[key];
    if (typeof v !== "number" || !(v >= 0 && v <= 1)) throw new Error(`${key} must be a number in [0, 1]`);
    out[key] = v;
  }
  if (r.rtdsSilentWithoutPingS !== undefined) {
    const v = r.rtdsSilentWithoutPingS;
    if (typeof v !== "number" || !(v >= 0)) throw new Error("rtdsSilentWithoutPingS must be a number of seconds >= 0");
    out.rtdsSilentWithoutPingS = v;
  }
  if (r.activeFramesPerS !== undefined) {
    const v = r.activeFramesPerS;
    if (typeof v !== "number" || !(v >= 0 && v <= 1000)) throw new Error("activeFramesPerS must be a number in [0, 1000]");
    out.activeFramesPerS = v;
  }
  for (const key of [
    "gammaClosedDefault",
    "rateLimits",
    "rtdsMakerRows",
    "rtdsTiming",
    "checksumWallets",
    "restLag",
    "cdnCache",
    "slowConsumerClose",
    "makerCrossOutcome",
  ] as const) {
    if (r[key] === undefined) continue;
    if (typeof r[key] !== "boolean") throw new Error(`${key} must be a boolean`);
    out[key] = r[key];
  }
  return out;
}

/** The V2 position id of one outcome: uint256(condition bytes31 ‖ outcome byte) (ts-sdk protocol/ids.ts). */
export function v2PositionId(conditionId62: string, outcome: number): string {
  return (BigInt(`${conditionId62}00`) | BigInt(outcome)).toString();
}

/**
 * Turns a share of the world's markets into V2 markets, in place (ids change, so this happens once, before any
 * request). The module byte 0x01 (binary) leads the condition, as in ts-sdk's `ProtocolModule.Binary`.
 */
export function applyV2Share(world: World, share: number): void {
  if (share <= 0) return;
  for (const market of world.markets) {
    if (rand(world.seed, SALT_V2, market.index) >= share) continue;
    const v1Condition = market.conditionId;
    const v1Tokens = market.tokenIds;
    const condition = `0x01${v1Condition.slice(4, 64)}`; // 0x + 62 hex
    const positions: [string, string] = [v2PositionId(condition, 0), v2PositionId(condition, 1)];
    world.marketByCondition.delete(v1Condition);
    world.tokenLookup.delete(v1Tokens[0]);
    world.tokenLookup.delete(v1Tokens[1]);
    market.conditionId = condition;
    market.tokenIds = positions;
    market.version = "v2";
    market.legacyTokenIds = rand(world.seed, SALT_V2_BOTH, market.index) < 0.5 ? v1Tokens : null;
    market.paddedCondition = rand(world.seed, SALT_V2_PADDED, market.index) < 0.3;
    world.marketByCondition.set(condition, market);
    world.marketByCondition.set(`${condition}00`, market);
    world.tokenLookup.set(positions[0], market.index * 2);
    world.tokenLookup.set(positions[1], market.index * 2 + 1);
  }
}

export type JunkKind = "event" | "market" | "trade" | "holder";
const JUNK_KINDS: Record<JunkKind, number> = { event: 0, market: 1, trade: 2, holder: 3 };

/** Whether this item is served as junk (the same items every time, so tests can name them). */
export function isJunk(world: World, reality: Reality, kind: JunkKind, key: number, key2 = 0): boolean {
  return reality.junkRate > 0 && rand(world.seed, SALT_JUNK, JUNK_KINDS[kind], key, key2) < reality.junkRate;
}

/** The market's condition id as Gamma sends it (V2 ids are sometimes padded to 64 hex). */
export function gammaConditionId(market: SimMarket): string {
  return market.paddedCondition ? `${market.conditionId}00` : market.conditionId;
}

// Junk shapes, each one a thing a strict parser would reject for the whole page (reported upstream breakages: a null
// slug, a non-decimal token id, a trade row without a price, a holder without an amount).
export function junkEvent(json: Record<string, unknown>): Record<string, unknown> {
  return { ...json, slug: null };
}
export function junkMarket(json: Record<string, unknown>): Record<string, unknown> {
  return json.version === "v2" ? { ...json, positionIds: ["0xnot-a-decimal", "1"] } : { ...json, clobTokenIds: '["0xnot-a-decimal", "1"]' };
}
export function junkTrade(json: Record<string, unknown>): Record<string, unknown> {
  return { ...json, price: null };
}
export function junkHolder(json: Record<string, unknown>): Record<string, unknown> {
  return { ...json, amount: "n/a" };
}
