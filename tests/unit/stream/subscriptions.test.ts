// The market channel's bounded, pruned subscription set (lib/stream/ingest/subscriptions.ts; docs/stream.md, "Which
// markets the worker subscribes"), with sockets that record what they were sent instead of connecting.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ResilientSocket } from "@/lib/stream/ingest/socket";
import { env } from "@/lib/env";
import { MarketSubscriptions, MIN_ASSETS_PER_SOCKET, type RuleListing, type SubscriptionRule } from "@/lib/stream/ingest/subscriptions";
import { pollUntil } from "../../helpers/poll";

interface FakeSocket {
  name: string;
  assets: Set<string>;
  custom: boolean;
  sent: { assets_ids: string[]; operation: string }[];
  started: boolean;
  stopped: boolean;
  close: (code: number) => void;
}

function harness(rule: Partial<SubscriptionRule> = {}, listTokens?: () => Promise<RuleListing>) {
  const sockets: FakeSocket[] = [];
  const dropped: string[] = [];
  const subs = new MarketSubscriptions({
    listTokens,
    rule: { minVolume24hUsd: 1000, maxTokens: 1000, maxSockets: 10, maxAssetsPerSocket: 100, connectIntervalMs: 0, ...rule },
    openSocket: (name, assets, custom, onClose) => {
      const s: FakeSocket = { name, assets, custom, sent: [], started: false, stopped: false, close: onClose };
      sockets.push(s);
      return {
        start: () => void (s.started = true),
        stop: () => void (s.stopped = true),
        send: (text: string) => void s.sent.push(JSON.parse(text)),
        stats: { connects: 0, reconnects: 0, stalls: 0, messages: 0 },
      } as unknown as ResilientSocket;
    },
    onDropped: (tokens) => dropped.push(...tokens),
  });
  const live = () => sockets.filter((s) => !s.stopped);
  return { subs, sockets, live, dropped };
}

const tokens = (n: number, prefix = "t") => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe("market channel subscriptions", () => {
  afterEach(() => void vi.useRealTimers());

  it("looks again every 2 s until a sampler pass has completed, then at the refresh interval", async () => {
    vi.useFakeTimers();
    // A first pass written page by page: one market's tokens listed, then two, then the pass completes with three.
    const listings: RuleListing[] = [
      { tokens: tokens(2), overCap: 0, passCompleted: false },
      { tokens: tokens(4), overCap: 0, passCompleted: false },
      { tokens: tokens(6), overCap: 0, passCompleted: true },
    ];
    let reads = 0;
    const h = harness({}, async () => listings[Math.min(reads++, listings.length - 1)]);
    h.subs.start();
    try {
      await vi.advanceTimersByTimeAsync(0);
      expect(reads).toBe(1);
      expect(h.subs.stats().tokens).toBe(2);
      // Tokens are subscribed, but the listing was part of a pass: the worker looks again soon.
      await vi.advanceTimersByTimeAsync(2_000);
      expect(reads).toBe(2);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(reads).toBe(3);
      expect(h.subs.stats().tokens).toBe(6);
      // A completed pass's listing: the next read is a refresh interval away, not 2 s.
      await vi.advanceTimersByTimeAsync(env.WORKER_SUBSCRIPTIONS_REFRESH_S * 1000 - 1);
      expect(reads).toBe(3);
      await vi.advanceTimersByTimeAsync(1);
      expect(reads).toBe(4);
    } finally {
      h.subs.stop();
    }
  });

  it("places tokens on as few sockets as the per-socket cap allows, caps tokens and sockets, custom features on one", () => {
    const h = harness({ maxTokens: 250, maxSockets: 2 });
    h.subs.apply(tokens(400));
    const stats = h.subs.stats();
    // 250 tokens wanted by the cap, 200 placed on the 2 sockets allowed, 50 left and counted.
    expect(stats.tokens).toBe(200);
    expect(stats.sockets).toBe(2);
    expect(stats.tokens_unplaced).toBe(50);
    expect(h.sockets.map((s) => s.assets.size)).toEqual([100, 100]);
    expect(h.sockets.filter((s) => s.custom)).toHaveLength(1);
  });

  it("unsubscribes a resolved market's tokens, closes an emptied socket, and does not take them back", () => {
    const h = harness();
    h.subs.apply(tokens(150));
    expect(h.live()).toHaveLength(2);
    h.subs.dropMarket("0xabc", ["t3", "t4"]);
    expect(h.subs.isSubscribed("t3")).toBe(false);
    expect(h.sockets[0].sent.at(-1)).toEqual({ assets_ids: ["t3", "t4"], operation: "unsubscribe" });
    expect(h.dropped).toEqual(["t3", "t4"]);
    // The next listing pass still lists them (the sampler has not seen the resolution yet): they stay out.
    h.subs.apply(tokens(150));
    expect(h.subs.isSubscribed("t3")).toBe(false);
    expect(h.subs.stats().tokens).toBe(148);
    // Markets falling out of the set are unsubscribed; a socket left empty is closed.
    h.subs.apply(tokens(90));
    expect(h.subs.stats().tokens).toBe(88);
    expect(h.live()).toHaveLength(1);
    expect(h.sockets[1].stopped).toBe(true);
  });

  it("subscribes a new market's tokens at once, outside the volume rule", async () => {
    const h = harness();
    h.subs.apply(tokens(10));
    // A socket sends its whole set when it opens; later tokens go as a subscribe update.
    await pollUntil(
      async () => h.sockets[0].started,
      (started) => started,
      5_000,
      5,
    );
    h.subs.addNewMarket("0xnew", ["n1", "n2"]);
    expect(h.subs.isSubscribed("n1")).toBe(true);
    expect(h.sockets[0].sent.at(-1)).toEqual({ assets_ids: ["n1", "n2"], operation: "subscribe" });
    h.subs.apply(tokens(10));
    expect(h.subs.isSubscribed("n2")).toBe(true);
  });

  it("shards smaller after a 1013 close: half the tokens per socket, the excess moved to other sockets", () => {
    const h = harness();
    h.subs.apply(tokens(100));
    expect(h.live()).toHaveLength(1);
    h.sockets[0].close(1013);
    const stats = h.subs.stats();
    expect(stats.slow_consumer_closes).toBe(1);
    expect(stats.per_socket_cap).toBe(50);
    expect(stats.tokens).toBe(100);
    expect(h.live().map((s) => s.assets.size)).toEqual([50, 50]);
    // Other close codes change nothing.
    h.sockets[1].close(1006);
    expect(h.subs.stats().per_socket_cap).toBe(50);
    // Never below the floor.
    for (let i = 0; i < 10; i++) h.live()[0].close(1013);
    expect(h.subs.stats().per_socket_cap).toBe(MIN_ASSETS_PER_SOCKET);
    expect(h.subs.stats().tokens).toBe(100);
  });
});
