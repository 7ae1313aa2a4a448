// One transaction's maker rows are the same on both feeds that show them: the Data API's `taker_only=false` (v1
// `takerOnly=false` too) and RTDS `trades`. Both are the exchange's per-order OrderFilled rows (research note §3.4,
// §6.2: RTDS `trades` carries the taker plus the makers "comme taker_only=false"; sim/polymarket/SOURCES.md, "Live
// feeds"), so wallet, asset, side, price and size must match row for row, whether `makerCrossOutcome` is on or off.
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { pollUntil } from "@/tests/helpers/poll";
import { getJson, type Row, simulatorForTests } from "./helpers";

const startedMs = Date.now();
// Twenty times the wall clock: enough transactions in a second or two; REST and RTDS read the same clock.
const simNow = () => startedMs + (Date.now() - startedMs) * 20;

const rowKey = (wallet: unknown, asset: unknown, side: unknown, price: unknown, size: unknown) =>
  [String(wallet).toLowerCase(), asset, side, price, size].join("|");

/** RTDS `trades` payloads grouped by transaction, in the order heard; the last one may still be arriving. */
async function hearTransactions(rtdsUrl: string, enough: (txs: Row[][]) => boolean): Promise<Row[][]> {
  const ws = new WebSocket(rtdsUrl);
  const byHash = new Map<string, Row[]>();
  ws.on("message", (raw) => {
    const text = raw.toString();
    if (!text.startsWith("{")) return;
    const message = JSON.parse(text) as { type?: string; payload?: Row };
    if (message.type !== "trades" || !message.payload) return;
    const hash = message.payload.transactionHash as string;
    byHash.set(hash, [...(byHash.get(hash) ?? []), message.payload]);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  ws.send(JSON.stringify({ action: "subscribe", subscriptions: [{ topic: "activity", type: "trades" }] }));
  // A transaction's rows go out together, one after another: once another transaction was heard after it, it is whole.
  const complete = () => [...byHash.values()].slice(0, -1);
  try {
    return await pollUntil(complete, enough, 60_000, 100, "RTDS trades transactions");
  } finally {
    ws.close();
  }
}

function agreeOnMakers(makerCrossOutcome: boolean) {
  const sim = simulatorForTests({ seed: 11, clock: simNow, reality: { rtdsMakerRows: true, makerCrossOutcome } });

  it(`shows each transaction's makers identically on /v2/trades, /trades and RTDS trades (makerCrossOutcome ${makerCrossOutcome})`, async () => {
    const txs = await hearTransactions(sim().rtdsUrl, (heard) => heard.length >= 30 && heard.some((rows) => rows.length >= 3));
    let makerRows = 0;
    let crossing = 0;
    let multiMaker = 0;
    for (const rtds of txs.slice(0, 30)) {
      const hash = rtds[0].transactionHash as string;
      const condition = rtds[0].conditionId as string;
      const v1 = (await getJson<Row[]>(`${sim().dataUrl}/trades?market=${condition}&takerOnly=false&limit=4000`)).body.filter(
        (t) => t.transactionHash === hash,
      );
      // v2 leaves out rows under 0.01 tokens unless told otherwise (its default filter): a maker's share of a split
      // fill can be that small, and v1 and RTDS show it.
      const v2 = (
        await getJson<{ data: Row[] }>(
          `${sim().dataUrl}/v2/trades?condition=${condition}&taker_only=false&filter_type=TOKENS&filter_amount=0&limit=1000`,
        )
      ).body.data.filter((t) => t.transaction_hash === hash);
      const takers = (await getJson<Row[]>(`${sim().dataUrl}/trades?market=${condition}&limit=4000`)).body.filter(
        (t) => t.transactionHash === hash,
      );
      expect(takers, `one taker row for ${hash}`).toHaveLength(1);
      const taker = takers[0];
      const rtdsRows = rtds.map((t) => rowKey(t.proxyWallet, t.asset, t.side, t.price, t.size)).sort();
      const v1Rows = v1.map((t) => rowKey(t.proxyWallet, t.asset, t.side, t.price, t.size)).sort();
      const v2Rows = v2.map((t) => rowKey(t.proxy_wallet, t.token_id, t.side, t.price, t.size)).sort();
      expect(v1Rows, `v1 takerOnly=false rows of ${hash}`).toEqual(rtdsRows);
      expect(v2Rows, `v2 taker_only=false rows of ${hash}`).toEqual(rtdsRows);
      expect(rtdsRows).toContain(rowKey(taker.proxyWallet, taker.asset, taker.side, taker.price, taker.size));

      const makers = rtds.filter((t) => t.proxyWallet !== taker.proxyWallet);
      expect(makers.length, `every RTDS row of ${hash} but the taker's is a maker's`).toBe(rtds.length - 1);
      makerRows += makers.length;
      if (makers.length >= 2) multiMaker++;
      crossing += makers.filter((m) => m.asset !== taker.asset).length;
    }
    expect(makerRows, "maker rows compared").toBeGreaterThanOrEqual(30);
    expect(multiMaker, "transactions with several makers").toBeGreaterThan(0);
    // Off means every maker the plain way on both feeds (reality.ts); on, most makers cross (78 %).
    if (makerCrossOutcome) expect(crossing).toBeGreaterThan(makerRows / 2);
    else expect(crossing).toBe(0);
  });
}

describe("maker rows shared by the Data API and RTDS trades", () => {
  describe("as measured", () => agreeOnMakers(true));
  describe("switched off", () => agreeOnMakers(false));
});
