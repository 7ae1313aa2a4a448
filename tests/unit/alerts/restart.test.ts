// A process killed between match and delivery: on PostgreSQL, a child process matches a stored trade (writing the
// delivery and moving the cursor in one transaction) and is SIGKILLed before any attempt. A fresh worker then
// delivers it, once, with the webhook id the killed process wrote; matching again finds nothing new.
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchOnce } from "@/lib/alerts/match";
import { createSubscription } from "@/lib/alerts/subscriptions";
import { startAlerts } from "@/lib/alerts/worker";
import type { Db } from "@/lib/db/client";
import { migratePostgres } from "@/lib/db/migrate-postgres";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { pollUntil } from "@/tests/helpers/poll";
import { POSTGRES_URL, postgresAvailable } from "@/tests/helpers/services";
import { insertTrade, LOOPBACK, seedMarket, startReceiver } from "./fixtures";
import { newKey } from "./request";

const available = await postgresAvailable();
const dbName = `alerts_restart_${process.pid}_${Date.now()}`;
const url = POSTGRES_URL.replace(/\/[^/]*$/, `/${dbName}`);
const admin = new pg.Client({ connectionString: POSTGRES_URL });
let db: Db;

function runChild(): Promise<{ signal: string | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      // One process (node with tsx's loader), so the kill is the matcher's own.
      process.execPath,
      ["--import", "tsx", "tests/unit/alerts/crash-child.ts", url],
      { env: { ...process.env, DATA_DIR: mkdtempSync(path.join(tmpdir(), "alerts-child-")) }, timeout: 90_000 },
      (_error, stdout) => resolve({ signal: child.signalCode, stdout }),
    );
  });
}

describe.skipIf(!available)("alerts across a killed process (PostgreSQL)", () => {
  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await migratePostgres(url);
    db = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
    await seedMarket(db, "701");
  }, 120_000);
  afterAll(async () => {
    await db?.$disconnect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  });

  it("delivers after restart what a killed process matched, with the id it wrote", async () => {
    const receiver = await startReceiver();
    try {
      const sub = await createSubscription(
        db,
        newKey(),
        { name: "restart", url: receiver.url, rules: [{ type: "trade", market_id: "701", min_usd: 0 }], enabled: true },
        LOOPBACK,
      );
      const tradeId = await insertTrade(db, { marketId: "701", usd: 1234 });
      const child = await runChild();
      expect(child.signal).toBe("SIGKILL");
      const written = JSON.parse(child.stdout.trim()) as {
        result: { queued: number };
        rows: { id: string; status: string; attempts: number }[];
      };
      expect(written.result.queued).toBe(1);
      expect(written.rows).toEqual([{ id: expect.stringMatching(/^msg_/), status: "pending", attempts: 0 }]);
      expect(receiver.received).toHaveLength(0);

      const worker = startAlerts({ db, pollMs: 100, queue: LOOPBACK });
      try {
        await pollUntil(
          async () => receiver.received.length,
          (n) => n >= 1,
          10_000,
          50,
        );
        await worker.settled();
      } finally {
        await worker.stop();
      }
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0].headers["webhook-id"]).toBe(written.rows[0].id);
      expect((JSON.parse(receiver.received[0].body) as { data: { id: string; rule: number } }).data).toMatchObject({
        id: tradeId,
        rule: 0,
      });
      expect(await db.alertDelivery.findUniqueOrThrow({ where: { id: written.rows[0].id } })).toMatchObject({
        status: "delivered",
        subscriptionId: sub.id,
      });
      expect((await matchOnce(db)).queued).toBe(0);
    } finally {
      await receiver.close();
    }
  }, 120_000);
});
