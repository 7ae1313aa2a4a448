// What the alerts bench's phases share (bench/alerts.ts): the receiver's control API, subscriptions and trades stored
// the way the service stores them, the machine's load sampled beside each measurement, and percentiles.
import { readFileSync } from "node:fs";
import os from "node:os";
import { matchOnce } from "@/lib/alerts/match";
import { RulesSchema } from "@/lib/alerts/rules";
import { createSubscription } from "@/lib/alerts/subscriptions";
import type { Db } from "@/lib/db/client";

/** What the parent (bench/alerts.ts) tells each database's run. */
export interface Config {
  subscriptions: number;
  rate: number;
  seconds: number;
  /** The real-time runs, in order: nothing down, subscription 0 hanging, subscription 0 answering 503. */
  phases: ("none" | "hang" | "503")[];
  /** Whether to run the simulated hours. */
  hour: boolean;
  receiver: string;
}

export const LOOPBACK = { policy: { allowLoopback: true, allowHttp: true } };

export type Receipt = [tradeId: string | null, at: number, path: string, webhookId: string | null];

export function receiverClient(base: string) {
  let next = 0;
  const all: Receipt[] = [];
  const byTrade = new Map<string, number>();
  return {
    base,
    /** Fetches the receipts since the last call; returns every receipt so far. */
    poll: async (): Promise<Receipt[]> => {
      const body = (await (await fetch(`${base}/__received?since=${next}`)).json()) as { receipts: Receipt[]; next: number };
      next = body.next;
      for (const r of body.receipts) {
        all.push(r);
        if (r[0] && !byTrade.has(r[0])) byTrade.set(r[0], r[1]);
      }
      return all;
    },
    firstReceipt: (tradeId: string) => byTrade.get(tradeId),
    requests: async (): Promise<Record<string, number>> =>
      ((await (await fetch(`${base}/__received?since=${1e12}`)).json()) as { requests: Record<string, number> }).requests,
    down: (p: string, mode: "503" | "hang" | "up") => fetch(`${base}/__down`, { method: "POST", body: JSON.stringify({ path: p, mode }) }),
  };
}
export type ReceiverClient = ReturnType<typeof receiverClient>;

/** The receiver path of subscription i of a phase; the pid keeps the runs on each database apart in one receiver. */
export const pathOf = (phase: number, i: number) => `/s/${process.pid}-${phase}/${i}`;

export const walletOf = (phase: number, i: number) => `0x${phase.toString(16).padStart(4, "0")}${i.toString(16).padStart(36, "0")}`;

/** `count` subscriptions for `phase`, subscription i a `trade` rule on wallet (phase, i), posting to `pathOf(phase, i)`. */
export async function subscribeAll(db: Db, base: string, phase: number, count: number): Promise<string[]> {
  const ids: string[] = [];
  const key = { keyId: crypto.randomUUID(), tier: "enterprise" as const };
  for (let i = 0; i < count; i++) {
    const rules = RulesSchema.parse([{ type: "trade", wallet: walletOf(phase, i) }]);
    const sub = await createSubscription(
      db,
      key,
      { name: `bench-${phase}-${i}`, url: `${base}${pathOf(phase, i)}`, rules, enabled: true },
      LOOPBACK,
    );
    ids.push(sub.id);
  }
  return ids;
}

/** A phase's end: its subscriptions stop matching and their rows leave the queue, so the next phase's figures
 * (queue depth above all) count only its own. */
export async function retire(db: Db, ids: string[]): Promise<void> {
  await db.alertSubscription.updateMany({ where: { id: { in: ids } }, data: { enabled: false } });
  await db.alertDelivery.deleteMany({ where: { subscriptionId: { in: ids } } });
}

/** Moves the matcher's cursor past everything stored so far. */
export async function catchUp(db: Db, now?: () => Date): Promise<void> {
  while ((await matchOnce(db, { now })).more);
}

export const MARKET = "9001";

export async function seedMarket(db: Db): Promise<void> {
  await db.market.create({
    data: {
      id: MARKET,
      conditionId: `0x${MARKET.padStart(64, "b")}`,
      eventId: `e${MARKET}`,
      eventSlug: `bench-${MARKET}`,
      slug: `bench-${MARKET}`,
      question: `Bench ${MARKET}?`,
      active: true,
      closed: false,
      open: true,
      seenAt: new Date(),
    },
  });
}

let tradeNo = 0;
/** Stores a trade as the service does (the `trades` trigger appends it to the stream log); its id. */
export async function storeTrade(db: Db, wallet: string, at = new Date()): Promise<string> {
  const id = `bench-${process.pid}-${++tradeNo}`;
  await db.$executeRawUnsafe(
    `INSERT INTO trades (id, tx_hash, condition_id, market_id, outcome, outcome_index, side, price, shares, usd_size, wallet, timestamp)
     VALUES ($1, $1, $2, $3, 'Yes', 0, 'BUY', 0.5, 200, 100, $4, $5::timestamptz)`,
    id,
    `0x${MARKET.padStart(64, "b")}`,
    MARKET,
    wallet,
    at.toISOString(),
  );
  return id;
}

export function percentile(sorted: readonly number[], p: number): number | null {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function summary(values: number[]) {
  const sorted = values.map((v) => Math.round(v)).sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50_ms: percentile(sorted, 50),
    p95_ms: percentile(sorted, 95),
    p99_ms: percentile(sorted, 99),
    max_ms: sorted.length ? sorted[sorted.length - 1] : null,
  };
}

function cpuTimes(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0];
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = v[3] + (v[4] ?? 0);
  const total = v.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** Samples the machine while a measurement runs: 1-minute load average each second, CPU busy, this process's CPU. */
export function loadSampler() {
  const loads: number[] = [os.loadavg()[0]];
  const cpu0 = cpuTimes();
  const self0 = process.cpuUsage();
  const t0 = performance.now();
  const timer = setInterval(() => loads.push(os.loadavg()[0]), 1_000);
  timer.unref();
  return () => {
    clearInterval(timer);
    loads.push(os.loadavg()[0]);
    const cpu1 = cpuTimes();
    const self = process.cpuUsage(self0);
    const wallS = (performance.now() - t0) / 1000;
    const sorted = [...loads].sort((a, b) => a - b);
    return {
      load1_min: sorted[0],
      load1_median: percentile(sorted, 50),
      load1_max: sorted[sorted.length - 1],
      machine_cpu_busy_pct: Math.round((1000 * (cpu1.busy - cpu0.busy)) / Math.max(1, cpu1.total - cpu0.total)) / 10,
      bench_process_cpu_pct: Math.round((1000 * (self.user + self.system)) / 1e6 / wallS) / 10,
      cpus: os.cpus().length,
    };
  };
}
