// The self-hosted sampler (`scripts/sampler.ts`, the process `npm run sampler` runs) against PostgreSQL, SIGKILLed in
// the middle of a pass while it is writing prices, then run again:
//   pass 1 completes → pass 2 is killed mid-write → (its lease lapses) → pass 3 completes.
// Afterwards: no duplicate trades or samples, no gap in the trade tape between pass 1 and pass 3, every outcome's
// stored history agrees with its current price, and sampler_runs shows exactly the killed pass as not finished.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratePostgres } from "@/lib/db/migrate-postgres";
import { type Simulator, startSimulator } from "@/sim/polymarket";
import { pollUntil } from "../../helpers/poll";
import { POSTGRES_URL, postgresAvailable } from "../../helpers/services";

const ROOT = path.resolve(__dirname, "../../..");

describe.runIf(await postgresAvailable())("sampler process killed mid-pass", () => {
  const dbName = `predmkt_fault_sampler_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  const databaseUrl = Object.assign(new URL(POSTGRES_URL), { pathname: `/${dbName}` }).toString();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "predmkt-sampler-kill-"));
  let db: pg.Client;
  let sim: Simulator;
  const children = new Set<ChildProcess>();

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await migratePostgres(databaseUrl);
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    sim = await startSimulator({ seed: 5 });
  });

  afterAll(async () => {
    for (const child of children) child.kill("SIGKILL");
    await db?.end();
    await sim?.close();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const query = async <T = Record<string, any>>(sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows as T[];

  /** `npm run sampler` as its own process: a pass at once, then (interval 1 h) idle until killed. */
  function startSamplerProcess(): ChildProcess {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "PGLITE_DIR") env[k] = v;
    Object.assign(env, {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      JWT_SECRET: "sampler-kill-test-jwt-secret-0123456789",
      CRON_SECRET: "sampler-kill-test-cron-secret-0123456789",
      ...sim.env,
      SAMPLER_INTERVAL_S: "3600",
    });
    // tsx as a loader inside this one process (not the tsx CLI, which runs the script in a grandchild that a SIGKILL
    // of its parent would leave running).
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/sampler.ts"], {
      cwd: ROOT,
      env: env as NodeJS.ProcessEnv,
      stdio: "ignore",
    });
    children.add(child);
    child.once("exit", () => children.delete(child));
    return child;
  }

  async function kill(child: ChildProcess) {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
  }

  async function waitFor<T>(
    what: string,
    probe: () => Promise<T | null | undefined | false>,
    timeoutMs = 60_000,
    everyMs = 100,
  ): Promise<T> {
    return (await pollUntil(probe, (value) => Boolean(value), timeoutMs, everyMs, what)) as T;
  }

  const runs = () =>
    query<{ id: number; status: string; started_at: Date; finished_at: Date | null; error: string | null }>(
      `SELECT id, status, started_at, finished_at, error FROM sampler_runs ORDER BY id`,
    );
  const leaseHeld = async () => (await query<{ n: number }>(`SELECT count(*)::int AS n FROM sampler_lease`))[0].n > 0;
  const watermark = async () =>
    Number((await query<{ value: string }>(`SELECT value FROM sampler_state WHERE key = 'trades_watermark'`))[0]?.value ?? 0);

  it("a re-run after the kill leaves no duplicates, no gaps except the killed pass, and records the killed pass", async () => {
    // Pass 1, to completion.
    const first = startSamplerProcess();
    // The run is marked ok before the lease is released: a kill in between would leave the lease held, and pass 2
    // would skip (its loop then idles for an hour). Pass 1 has finished once both are true.
    await waitFor(
      "pass 1 to finish and release its lease",
      async () => (await runs()).some((r) => r.status === "ok") && !(await leaseHeld()),
      90_000,
    );
    await kill(first);
    const [pass1] = await runs();
    const watermark1 = await watermark();
    expect(watermark1).toBeGreaterThan(0);
    const tradesAfterPass1 = Number((await query(`SELECT count(*) FROM trades`))[0].count);
    expect(tradesAfterPass1).toBeGreaterThan(0);

    // Pass 2: the trade tape is made slow so the pass cannot finish on its own; it is killed the moment it has
    // started writing prices (part of the outcomes carry its time, the rest still pass 1's).
    // New trades on the upstream tape past pass 1's watermark, for pass 3 to read (pass 2, a new process, stamps its
    // samples later than pass 1 by starting at all).
    await waitFor("a trade newer than pass 1's watermark upstream", async () => {
      const [newest] = (await (await fetch(`${sim.dataUrl}/trades?limit=1&takerOnly=true`)).json()) as { timestamp: number }[];
      return newest && newest.timestamp > watermark1;
    });
    sim.setFault({ target: "data", path: "/trades", mode: "latency", latency_ms: 30_000 });
    const second = startSamplerProcess();
    await waitFor(
      "pass 2 to start writing prices",
      async () => {
        const [row] = await query(`SELECT count(*)::int AS n FROM outcomes WHERE priced_at > $1`, [pass1.finished_at]);
        return row.n > 0;
      },
      90_000,
      5,
    );
    await kill(second);
    const afterKill = await runs();
    expect(afterKill.map((r) => r.status)).toEqual(["ok", "running"]);
    // The dead pass still holds the lease: a re-run before it lapses would skip rather than write alongside it.
    const [lease] = await query(`SELECT expires_at > now() AS held FROM sampler_lease`);
    expect(lease.held).toBe(true);

    // Its lease lapses after leaseTtlMs (2 min); expiring it here stands in for that wait.
    await query(`UPDATE sampler_lease SET expires_at = now() - interval '1 second'`);
    sim.clearFaults();
    // The killed pass is gone from the database too: a statement it had in flight has run to its end and no session
    // of it is left, so nothing of pass 2 can still land once pass 3 starts.
    await waitFor(
      "the killed pass's sessions to end",
      async () =>
        (
          await query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
             WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
          )
        )[0].n === 0,
      30_000,
    );
    const third = startSamplerProcess();
    await waitFor("pass 3 to finish", async () => (await runs()).length === 3 && (await runs())[2].status !== "running", 90_000);
    await kill(third);

    // sampler_runs: exactly the killed pass is marked as not finished.
    const all = await runs();
    expect(all.map((r) => r.status)).toEqual(["ok", "abandoned", "ok"]);
    expect(all[1].finished_at).toBeNull();
    expect(all[1].error).toMatch(/did not finish/);
    const [pass3] = all.slice(2);

    // No duplicate trades: one row per fill identity.
    const dupTrades = await query(
      `SELECT tx_hash, lower(wallet) AS wallet, side, outcome_index, shares, price, timestamp, count(*) AS n FROM trades
       GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING count(*) > 1`,
    );
    expect(dupTrades).toEqual([]);

    // No duplicate samples: raw samples are change-only, so an outcome never has two consecutive raw rows with the
    // same price inside the heartbeat (a replayed write would leave exactly that).
    const repeated = await query(
      `SELECT count(*)::int AS n FROM (
         SELECT price, t, lag(price) OVER w AS prev_price, lag(t) OVER w AS prev_t
         FROM price_samples WHERE resolution_s = 60 WINDOW w AS (PARTITION BY outcome_id ORDER BY t)) s
       WHERE prev_price = price AND t - prev_t < interval '1 hour'`,
    );
    expect(repeated[0].n).toBe(0);

    // No gap in prices: every priced outcome was priced by pass 3, and its newest raw sample is its current price,
    // stored at the time the outcome says it last stored one.
    const stalePrices = await query(
      `SELECT count(*)::int AS n FROM outcomes WHERE price IS NOT NULL AND (priced_at < $1 OR priced_at > $2)`,
      [pass3.started_at, pass3.finished_at],
    );
    expect(stalePrices[0].n).toBe(0);
    const disagreeing = await query(
      `SELECT count(*)::int AS n FROM outcomes o
       LEFT JOIN LATERAL (SELECT t, price FROM price_samples s WHERE s.resolution_s = 60 AND s.outcome_id = o.id ORDER BY t DESC LIMIT 1) last ON true
       WHERE o.price IS NOT NULL AND (last.t IS NULL OR last.price <> o.price::real OR last.t <> o.last_stored_at)`,
    );
    expect(disagreeing[0].n).toBe(0);
    // Every raw sample belongs to one of the three passes; pass 2's are the partial ones.
    const outside = await query(
      `SELECT count(*)::int AS n FROM price_samples WHERE resolution_s = 60 AND NOT (t BETWEEN $1 AND $2 OR t BETWEEN $3 AND $4 OR t BETWEEN $4 AND $5)`,
      [pass1.started_at, pass1.finished_at, afterKill[1].started_at, pass3.started_at, pass3.finished_at],
    );
    expect(outside[0].n).toBe(0);

    // No gap in the trade tape: every taker fill the upstream lists from pass 1's watermark up to pass 3's is stored,
    // once (the killed pass never got to the tape; pass 3 read back to pass 1's watermark).
    const watermark3 = await watermark();
    expect(watermark3).toBeGreaterThan(watermark1);
    const upstream: { transactionHash: string; proxyWallet: string; side: string; timestamp: number }[] = [];
    for (let offset = 0; offset < 10_000; offset += 500) {
      const page = (await (await fetch(`${sim.dataUrl}/trades?limit=500&offset=${offset}&takerOnly=true`)).json()) as typeof upstream;
      upstream.push(...page);
      if (page.length < 500 || page[page.length - 1].timestamp < watermark1) break;
    }
    const keyOf = (tx: string, wallet: string, side: string, ts: number) => `${tx.toLowerCase()}|${wallet.toLowerCase()}|${side}|${ts}`;
    const expected = new Map<string, number>();
    for (const t of upstream) {
      if (t.timestamp < watermark1 || t.timestamp >= watermark3) continue;
      const k = keyOf(t.transactionHash, t.proxyWallet, t.side, t.timestamp);
      expected.set(k, (expected.get(k) ?? 0) + 1);
    }
    expect(expected.size).toBeGreaterThan(0);
    const stored = await query<{ tx_hash: string; wallet: string; side: string; ts: number; n: number }>(
      `SELECT tx_hash, wallet, side, extract(epoch FROM timestamp)::bigint AS ts, count(*)::int AS n FROM trades
       WHERE timestamp >= to_timestamp($1) AND timestamp < to_timestamp($2) GROUP BY 1, 2, 3, 4`,
      [watermark1, watermark3],
    );
    const storedMap = new Map(stored.map((r) => [keyOf(r.tx_hash, r.wallet, r.side, Number(r.ts)), r.n]));
    const missing = [...expected].filter(([k, n]) => (storedMap.get(k) ?? 0) !== n);
    expect(missing).toEqual([]);
  }, 240_000);
});
