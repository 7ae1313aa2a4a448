// Alerts bench (docs/alerts.md): prints figures, asserts nothing.
//   PGLITE_DIR=memory:// DATA_DIR=.data/bench-alerts npx tsx bench/alerts.ts
// 1. Latency: BENCH_ALERTS_SUBSCRIPTIONS (100) subscriptions, each a `trade` rule on its own wallet, all delivering
//    to one local receiver (a path per subscription); trades are stored at BENCH_ALERTS_RATE (50) per second, each
//    matching one subscription, for BENCH_ALERTS_S (20) seconds while the alert worker runs as self-hosted (poll
//    ALERTS_POLL_MS). Figure: stored (the INSERT returned) → received by the receiver, p50/p95/p99.
// 2. One receiver down for an hour, on a simulated clock (no waiting): every simulated minute each subscription gets
//    one match; subscription 0's endpoint answers 503. Figures: its queue depth and attempts through the hour, and
//    the others' undelivered count (0 means unaffected) and deliveries.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { drainOnce } from "@/lib/alerts/sender";
import { matchOnce } from "@/lib/alerts/match";
import { RulesSchema } from "@/lib/alerts/rules";
import { createSubscription } from "@/lib/alerts/subscriptions";
import { startAlerts } from "@/lib/alerts/worker";
import { closeDb, type Db, getDb } from "@/lib/db/client";

const SUBSCRIPTIONS = Number(process.env.BENCH_ALERTS_SUBSCRIPTIONS ?? 100);
const RATE = Number(process.env.BENCH_ALERTS_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_ALERTS_S ?? 20);
const LOOPBACK = { policy: { allowLoopback: true, allowHttp: true } };

const wallet = (i: number) => `0x${(i + 1).toString(16).padStart(40, "0")}`;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

let tradeNo = 0;
async function storeTrade(db: Db, marketId: string, walletAddress: string, at: Date): Promise<string> {
  const id = `bench-${process.pid}-${++tradeNo}`;
  await db.$executeRawUnsafe(
    `INSERT INTO trades (id, tx_hash, condition_id, market_id, outcome, outcome_index, side, price, shares, usd_size, wallet, timestamp)
     VALUES ($1, $1, $2, $3, 'Yes', 0, 'BUY', 0.5, 200, 100, $4, $5::timestamptz)`,
    id,
    `0x${marketId.padStart(64, "b")}`,
    marketId,
    walletAddress,
    at.toISOString(),
  );
  return id;
}

async function seedMarket(db: Db, id: string): Promise<void> {
  await db.market.create({
    data: {
      id,
      conditionId: `0x${id.padStart(64, "b")}`,
      eventId: `e${id}`,
      eventSlug: `bench-${id}`,
      slug: `bench-${id}`,
      question: `Bench ${id}?`,
      active: true,
      closed: false,
      open: true,
      seenAt: new Date(),
    },
  });
}

async function receiver(downPath: string | null) {
  const received = new Map<string, number>();
  let requests = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests++;
      if (req.url === downPath) {
        res.statusCode = 503;
        res.end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { data: { id: string } };
      if (!received.has(body.data.id)) received.set(body.data.id, Date.now());
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, received, requests: () => requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function subscribeAll(db: Db, base: string, walletOffset: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  const key = { keyId: crypto.randomUUID(), tier: "enterprise" as const };
  for (let i = 0; i < SUBSCRIPTIONS; i++) {
    const rules = RulesSchema.parse([{ type: "trade", wallet: wallet(walletOffset + i) }]);
    ids.push((await createSubscription(db, key, { name: `${tag}-${i}`, url: `${base}/s/${i}`, rules, enabled: true }, LOOPBACK)).id);
  }
  return ids;
}

async function latency(db: Db): Promise<void> {
  await seedMarket(db, "9001");
  const rx = await receiver(null);
  await subscribeAll(db, rx.base, 0, "latency");
  await matchOnce(db);
  const worker = startAlerts({ db, queue: LOOPBACK });
  const stored = new Map<string, number>();
  const started = Date.now();
  let i = 0;
  while (Date.now() - started < SECONDS * 1000) {
    const due = started + (i * 1000) / RATE;
    if (Date.now() < due) await new Promise((r) => setTimeout(r, due - Date.now()));
    const id = await storeTrade(db, "9001", wallet(i % SUBSCRIPTIONS), new Date());
    stored.set(id, Date.now());
    i++;
  }
  const storeSeconds = (Date.now() - started) / 1000;
  const deadline = Date.now() + 30_000;
  while (rx.received.size < stored.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  await worker.stop();
  const latencies = [...stored].flatMap(([id, at]) => (rx.received.has(id) ? [rx.received.get(id)! - at] : [])).sort((a, b) => a - b);
  console.log(
    `latency: ${SUBSCRIPTIONS} subscriptions, ${stored.size} matches stored in ${storeSeconds.toFixed(1)} s ` +
      `(${(stored.size / storeSeconds).toFixed(1)} matches/s), ${latencies.length} received (${rx.requests()} requests)`,
  );
  console.log(
    `  stored → received: p50 ${pct(latencies, 50)} ms, p95 ${pct(latencies, 95)} ms, p99 ${pct(latencies, 99)} ms, max ${latencies[latencies.length - 1]} ms`,
  );
  await rx.close();
}

async function receiverDown(db: Db): Promise<void> {
  await seedMarket(db, "9002");
  const rx = await receiver("/s/0");
  const subs = await subscribeAll(db, rx.base, 10_000, "down");
  await matchOnce(db);
  const clock = { t: Date.now() };
  const deps = { ...LOOPBACK, now: () => new Date(clock.t) };
  const depthOf = async (ids: string[]) =>
    db.alertDelivery.count({ where: { subscriptionId: { in: ids }, status: { in: ["pending", "failed"] } } });
  console.log("receiver down for an hour (simulated clock; one match per subscription per minute):");
  for (let minute = 1; minute <= 60; minute++) {
    for (let i = 0; i < SUBSCRIPTIONS; i++) await storeTrade(db, "9002", wallet(10_000 + i), new Date(clock.t));
    while ((await matchOnce(db, { now: deps.now })).more);
    await drainOnce(db, deps);
    if (minute % 15 === 0 || minute === 1) {
      const down = await db.alertDelivery.findMany({ where: { subscriptionId: subs[0] }, orderBy: { position: "asc" }, take: 1 });
      console.log(
        `  minute ${String(minute).padStart(2)}: down subscription depth ${await depthOf([subs[0]])} (head attempts ${down[0]?.attempts ?? 0}), ` +
          `others undelivered ${await depthOf(subs.slice(1))}, others delivered ${await db.alertDelivery.count({ where: { subscriptionId: { in: subs.slice(1) }, status: "delivered" } })}`,
      );
    }
    clock.t += 60_000;
  }
  const sub0 = await db.alertSubscription.findUniqueOrThrow({ where: { id: subs[0] } });
  console.log(
    `  after the hour: down subscription enabled=${sub0.enabled}, requests to the down endpoint ${rx.requests() - (await db.alertDelivery.count({ where: { subscriptionId: { in: subs.slice(1) }, status: "delivered" } }))}`,
  );
  await rx.close();
}

async function main(): Promise<void> {
  const db = await getDb();
  console.log(`alerts bench on ${process.env.DATABASE_URL ? "PostgreSQL" : "embedded PGlite"}`);
  await latency(db);
  await receiverDown(db);
  await closeDb();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
