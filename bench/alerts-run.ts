// One database's run of the alerts bench (spawned by bench/alerts.ts with that database's environment; prints its
// progress, then one `RESULT {json}` line). Part 1 in real time with the self-hosted worker; part 2 on a simulated
// clock (bench/lib/alerts-hour.ts).
import { startAlerts } from "@/lib/alerts/worker";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import {
  catchUp,
  type Config,
  pathOf,
  LOOPBACK,
  loadSampler,
  type ReceiverClient,
  receiverClient,
  retire,
  seedMarket,
  storeTrade,
  subscribeAll,
  summary,
  walletOf,
} from "./lib/alerts-common";
import { simulatedHour } from "./lib/alerts-hour";

const config = JSON.parse(process.env.BENCH_ALERTS_CONFIG ?? "{}") as Config;
let phaseNo = 0;

/** Trades at `rate` a second for `seconds`, each matching one subscription, while the worker runs; latency figures. */
async function realTime(db: Db, rx: ReceiverClient, down: "hang" | "503" | null) {
  const phase = ++phaseNo;
  const subs = await subscribeAll(db, rx.base, phase, config.subscriptions);
  const downPath = pathOf(phase, 0);
  if (down) await rx.down(downPath, down);
  await catchUp(db);
  const worker = startAlerts({ db, queue: LOOPBACK });
  const stored: { id: string; at: number; sub: number }[] = [];
  const load = loadSampler();
  const started = Date.now();
  // Up to 8 inserts in flight, as several writers would store them: a slow insert does not hold the rate down (on
  // PGlite they still queue on its one connection). "Stored" is when each INSERT has returned.
  const inFlight = new Set<Promise<void>>();
  for (let i = 0; Date.now() - started < config.seconds * 1000; i++) {
    const due = started + (i * 1000) / config.rate;
    if (Date.now() < due) await new Promise((r) => setTimeout(r, due - Date.now()));
    if (inFlight.size >= 8) await Promise.race(inFlight);
    const sub = i % config.subscriptions;
    const insert: Promise<void> = storeTrade(db, walletOf(phase, sub)).then((id) => void stored.push({ id, at: Date.now(), sub }));
    inFlight.add(insert);
    void insert.finally(() => inFlight.delete(insert));
  }
  await Promise.all(inFlight);
  const storeSeconds = (Date.now() - started) / 1000;
  const expected = stored.filter((s) => !down || s.sub !== 0);
  const deadline = Date.now() + 60_000;
  for (;;) {
    await rx.poll();
    if (expected.every((s) => rx.firstReceipt(s.id) !== undefined) || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const machine = load();
  if (down) await rx.down(downPath, "up");
  await worker.stop();
  const latency = (rows: typeof stored) =>
    summary(
      rows.flatMap((s) => {
        const at = rx.firstReceipt(s.id);
        return at === undefined ? [] : [at - s.at];
      }),
    );
  const result = {
    down,
    subscriptions: subs.length,
    matches_stored: stored.length,
    matches_per_s: Math.round((stored.length / storeSeconds) * 10) / 10,
    received: expected.filter((s) => rx.firstReceipt(s.id) !== undefined).length,
    expected: expected.length,
    latency: latency(expected),
    down_endpoint_requests: down ? ((await rx.requests())[downPath] ?? 0) : null,
    load: machine,
  };
  await retire(db, subs);
  const l = result.latency;
  console.log(
    `  real time${down ? `, subscription 0 down (${down})` : ""}: ${result.matches_stored} matches at ${result.matches_per_s}/s to ` +
      `${result.subscriptions} subscriptions; ${result.received}/${result.expected} received${down ? ` (the other ${subs.length - 1})` : ""}; ` +
      `stored → received p50 ${l.p50_ms} ms, p95 ${l.p95_ms} ms, p99 ${l.p99_ms} ms, max ${l.max_ms} ms` +
      `${down ? `; down endpoint asked ${result.down_endpoint_requests}×` : ""}; load1 ${machine.load1_median} ` +
      `(${machine.load1_min}–${machine.load1_max}), machine CPU ${machine.machine_cpu_busy_pct} %, bench ${machine.bench_process_cpu_pct} %`,
  );
  return result;
}

async function main(): Promise<void> {
  const database = env.DATABASE_URL ? "postgresql" : "pglite";
  console.log(`${database}:`);
  const db = await getDb();
  await seedMarket(db);
  const rx = receiverClient(config.receiver);
  const realtime = [];
  for (const down of config.phases) realtime.push(await realTime(db, rx, down === "none" ? null : down));
  const hour = [];
  for (const down of config.hour ? [false, true] : []) {
    const h = await simulatedHour(db, rx, ++phaseNo, config.subscriptions, down);
    hour.push(h);
    const lat = h.others_latency_wall as ReturnType<typeof summary>;
    console.log(
      `  simulated hour${down ? ", subscription 0 answering 503" : " (control, all up)"}: ${String(h.others_delivered)}/${String(h.others_expected)} ` +
        `of the others delivered, at most ${String(h.others_undelivered_max_after_a_minute)} undelivered after a minute; their wall latency ` +
        `p50 ${lat.p50_ms} ms, p95 ${lat.p95_ms} ms`,
    );
    if (down) console.log(`  down subscription: ${JSON.stringify(h.down_subscription)}`);
  }
  await closeDb();
  console.log(`RESULT ${JSON.stringify({ database, realtime, hour })}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
