// The market channel's order flow at the measured rate (reality `activeMarketShare`, `activeFramesPerS`; a third
// party's measurement, so a switch: SOURCES.md, "Live feeds"). The research note counted ≈ 48 `price_change` frames a
// second for one active token: every order placed or cancelled at any level of its book is one frame (docs
// market-channel: `price_change` "when a new order is placed or an order is cancelled"). Without the switch the
// simulator sends one `price_change` per token per second, and only when its top of book moves (ws.ts).
// - Which markets are active is ours (no source gives the share): a market is active when a seeded draw falls under
//   `activeMarketShare`; each subscribed token of an active market then gets its own Poisson stream of frames at
//   `activeFramesPerS`.
// - A frame is an order at one of the five levels nearest the top (a BUY at the bid or below, a SELL at the ask or
//   above; size "0" for a cancel, a third of them); its `best_bid`/`best_ask` are the top of book the channel last
//   announced, so these frames never move the displayed price by themselves (the quote-change pass still does).
// - Frames go out as the real channel sends them, one message each, through the same delivery as every other
//   message (faults, drops, and the 1013 close of a reader whose send buffer passes SLOW_CONSUMER_BYTES).
import { decimalString } from "./prices";
import { poisson, rand } from "./random";
import type { World } from "./world";

/** research note §6.1: ≈ 48 `price_change` frames/s for one active token. */
export const ACTIVE_PRICE_CHANGE_HZ = 48;
const SALT_ACTIVE = 970;
/** Levels on each side an order may land on (ours). */
const LEVELS = 5;
/** Share of the frames that cancel an order (size "0"; ours). */
const CANCEL_SHARE = 1 / 3;

/** Whether a market's tokens send the active order flow (seeded, so every run picks the same markets). */
export function isActiveMarket(world: World, marketIndex: number, share: number): boolean {
  return share > 0 && rand(world.seed, SALT_ACTIVE, marketIndex) < share;
}

interface FlowClient {
  assets: Set<string>;
  /** Bumped on every subscribe and unsubscribe: the client's active list is rebuilt. */
  assetsVersion: number;
}

interface Top {
  bid: number;
  ask: number;
  tick: number;
}

interface Entry {
  /** Everything of the frame up to the order's price. */
  head: string;
  /** The top of book and the rest of the change, up to the timestamp. */
  tail: string;
  bid: number;
  ask: number;
  tick: number;
}

export class OrderFlow {
  private readonly lists = new WeakMap<FlowClient, { version: number; second: number; entries: Entry[] }>();
  private sequence = 0;
  frames = 0;

  constructor(private readonly world: World) {}

  /**
   * Sends one client the frames of its active tokens due in the last `dtMs` (Poisson at `hz` per token). The list of
   * its active tokens, and the top each frame carries, is rebuilt once a second and when its subscriptions change.
   */
  emit(
    client: FlowClient,
    share: number,
    hz: number,
    dtMs: number,
    nowMs: number,
    top: (asset: string) => Top | null,
    send: (text: string) => void,
  ): void {
    const entries = this.entries(client, share, nowMs, top);
    if (!entries.length) return;
    const lambda = (hz * dtMs) / 1000;
    const stamp = `"}],"timestamp":"${nowMs}","event_type":"price_change"}`;
    for (const e of entries) {
      const n = poisson(lambda, Math.random());
      for (let i = 0; i < n; i++) {
        const buy = Math.random() < 0.5;
        const k = Math.floor(Math.random() * LEVELS);
        let price = buy ? e.bid - k * e.tick : e.ask + k * e.tick;
        // Near 0 or 1 there are fewer levels: the order lands on the top one (the rate per token stays the same).
        if (price <= 0 || price >= 1) price = buy ? e.bid : e.ask;
        if (price <= 0 || price >= 1) continue;
        const size = Math.random() < CANCEL_SHARE ? "0" : String(1 + Math.floor(Math.random() * 5000));
        const hash = (++this.sequence).toString(16).padStart(40, "0");
        this.frames++;
        send(`${e.head}${decimalString(price, 3)}","size":"${size}","side":"${buy ? "BUY" : "SELL"}","hash":"${hash}${e.tail}${stamp}`);
      }
    }
  }

  private entries(client: FlowClient, share: number, nowMs: number, top: (asset: string) => Top | null): Entry[] {
    const second = Math.floor(nowMs / 1000);
    const cached = this.lists.get(client);
    if (cached && cached.version === client.assetsVersion && cached.second === second) return cached.entries;
    const entries: Entry[] = [];
    for (const asset of client.assets) {
      const code = this.world.tokenLookup.get(asset);
      if (code === undefined || !isActiveMarket(this.world, code >> 1, share)) continue;
      const t = top(asset);
      if (!t) continue;
      const market = this.world.markets[code >> 1];
      entries.push({
        head: `{"market":"${market.conditionId}","price_changes":[{"asset_id":"${asset}","price":"`,
        tail: `","best_bid":"${decimalString(t.bid, 3)}","best_ask":"${decimalString(t.ask, 3)}`,
        bid: t.bid,
        ask: t.ask,
        tick: t.tick,
      });
    }
    this.lists.set(client, { version: client.assetsVersion, second, entries });
    return entries;
  }
}
