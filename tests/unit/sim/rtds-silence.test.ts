// RTDS silence (sim/polymarket/SOURCES.md, "Live feeds"): with reality `rtdsSilentWithoutPingS` a connection that has
// not pinged for that long hears nothing more (research note §6.2: "send PING every 5 s or RTDS falls silent after
// about 6 minutes", shortened to a second here), while one that pings keeps hearing every trade.
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { simulatorForTests } from "./helpers";
import { pollUntil } from "@/tests/helpers/poll";

async function listener(url: string) {
  const ws = new WebSocket(url);
  const heard: { at: number; text: string }[] = [];
  ws.on("message", (raw) => {
    const text = raw.toString();
    if (text.startsWith("{")) heard.push({ at: Date.now(), text });
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  const openedAt = Date.now();
  ws.send(JSON.stringify({ action: "subscribe", subscriptions: [{ topic: "activity", type: "orders_matched" }] }));
  return { ws, heard, openedAt };
}

describe("simulated RTDS silence without pings", () => {
  const sim = simulatorForTests({ seed: 3, scale: "small", reality: { rtdsSilentWithoutPingS: 1 } });

  it("keeps a pinging connection fed and cuts a silent one off after the allowance", async () => {
    const pinging = await listener(sim().rtdsUrl);
    const mute = await listener(sim().rtdsUrl);
    const pinger = setInterval(() => pinging.ws.send("PING"), 250);
    try {
      const at = Math.floor(Date.now() / 1000) + 2;
      sim().burst(40, { atSec: at, spreadSec: 4 });
      const burstTx = new Set(
        sim()
          .flow.query({ markets: null, takerOnly: true, since: at, until: at + 4, need: 1_000_000 })
          .filter((t) => t.kind === 2)
          .map((t) => sim().flow.txHash(t)),
      );
      const txOf = (h: { text: string }) => (JSON.parse(h.text) as { payload: { transactionHash: string } }).payload.transactionHash;
      await pollUntil(
        () => pinging.heard.filter((h) => burstTx.has(txOf(h))).length,
        (n) => n >= burstTx.size,
        20_000,
        100,
        "the pinging connection hears every fill of the burst",
      );
      // The burst starts two seconds after both connections opened: the mute one is silent by then.
      expect(mute.heard.filter((h) => burstTx.has(txOf(h)))).toEqual([]);
      expect(mute.heard.every((h) => h.at - mute.openedAt < 1500)).toBe(true);
      const counters = ((await (await fetch(`${sim().url}/__sim/ws`)).json()) as { counters: Record<string, number> }).counters;
      expect(counters.messages_silenced).toBeGreaterThanOrEqual(burstTx.size);
    } finally {
      clearInterval(pinger);
      pinging.ws.close();
      mute.ws.close();
    }
  }, 40_000);
});
