// The resolution publisher on PostgreSQL (the self-hosted topology, where the server, the worker and the cron route
// may publish at the same moment): concurrent publishers of one answer publish each transition once, the log's seq
// is drawn in commit order, and the stream's channel is notified with the newest seq.
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringToHex } from "viem";
import { migratePostgres } from "@/lib/db/migrate-postgres";
import type { Db } from "@/lib/db/client";
import { loadEnv } from "@/lib/env";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { oracleConfigFromEnv } from "@/lib/oracle/config";
import { createOracleContext, type OracleContext } from "@/lib/oracle/context";
import { storeSnapshot } from "@/lib/oracle/snapshots";
import { STANDARD_UMA_CTF_ADAPTERS } from "@/lib/resolution/addresses";
import { appendInitializer, conditionIdOf, questionIdOf } from "@/lib/resolution/ids";
import { publishResolutionTransitions } from "@/lib/resolution/push";
import { POSTGRES_URL, postgresAvailable } from "../../helpers/services";

const postgresUp = await postgresAvailable();
const ADAPTER = STANDARD_UMA_CTF_ADAPTERS[2];
const DISPUTED = 1_790_000_000;
const iso = (s: number) => new Date(s * 1000).toISOString();

describe.runIf(postgresUp)("publishResolutionTransitions on PostgreSQL", () => {
  const dbName = `predmkt_push_${process.pid}_${Date.now()}`;
  const url = Object.assign(new URL(POSTGRES_URL), { pathname: `/${dbName}` }).toString();
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  const listener = new pg.Client({ connectionString: url });
  const notified: number[] = [];
  let db: Db;
  const contexts: OracleContext[] = [];
  const text = "q: title: Will Postgres publish once?, description: p1 corresponds to No, p2 to Yes, p3 to unknown/50-50.";
  const questionId = questionIdOf(appendInitializer(stringToHex(text), ADAPTER));
  const dispute = (id: string, status: string, phase: string | null = null) => ({
    id: `0x${id.repeat(64)}`,
    question_id: questionId,
    title: "Will Postgres publish once?",
    description: text,
    requester: ADAPTER,
    status,
    vote_phase: phase,
    roll_count: 0,
    proposed_price: "0",
    requested_at: iso(DISPUTED - 3600),
    proposed_at: iso(DISPUTED - 600),
    disputed_at: iso(DISPUTED),
    dispute_tx_hash: null,
    dvm: { round_id: 7 },
    unread: [],
  });
  let block = 0;
  const store = async (rows: object[]) => {
    block++;
    const meta = { as_of: iso(DISPUTED + block), block_number: block, polygon_block_number: block, backfill_complete: true };
    await storeSnapshot(contexts[0], "disputes", { data: rows, meta }, BigInt(block));
  };

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await migratePostgres(url);
    db = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
    // The dispute's market is stored, so the join reads no upstream.
    await db.market.create({
      data: {
        id: "800",
        conditionId: conditionIdOf(ADAPTER, questionId).toLowerCase(),
        eventId: "80",
        eventSlug: "pg-event",
        slug: "pg-market",
        question: "Will Postgres publish once?",
        active: true,
        closed: false,
        open: true,
        seenAt: new Date(DISPUTED * 1000),
      },
    });
    const config = oracleConfigFromEnv(loadEnv({ ...process.env }));
    // Three processes' publishers: their own contexts, one database.
    for (let i = 0; i < 3; i++) contexts.push(createOracleContext("pg-push", config, async () => db));
    await listener.connect();
    listener.on("notification", (m) => notified.push(Number(m.payload)));
    await listener.query("LISTEN predmkt_stream");
  }, 60_000);
  afterAll(async () => {
    await listener.end().catch(() => undefined);
    await (db as unknown as PrismaClient | undefined)?.$disconnect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  });

  it("publishes each transition once when several publishers run at once, and notifies the stream", async () => {
    await store([dispute("1", "disputed"), dispute("2", "voting", "commit")]);
    const first = await Promise.all(contexts.map((c) => publishResolutionTransitions(c)));
    expect(
      first.flatMap((r) => r.transitions).map((t) => [t.dispute_id!.slice(0, 4), t.transition, t.proposed_outcome, t.market?.id]),
    ).toEqual([
      ["0x11", "disputed", "No", "800"],
      ["0x22", "voting", "No", "800"],
    ]);
    await store([dispute("1", "voting", "commit"), dispute("2", "voting", "reveal")]);
    const second = await Promise.all(contexts.map((c) => publishResolutionTransitions(c)));
    expect(second.flatMap((r) => r.transitions).map((t) => [t.dispute_id!.slice(0, 4), t.transition])).toEqual([
      ["0x11", "voting"],
      ["0x22", "reveal"],
    ]);
    const rows = await db.streamEvent.findMany({ where: { topic: "resolution" }, orderBy: { seq: "asc" } });
    expect(rows.map((r) => (r.payload as { transition: string }).transition)).toEqual(["disputed", "voting", "voting", "reveal"]);
    const states = await db.resolutionStreamState.findMany({ orderBy: { disputeId: "asc" } });
    expect(states.map((s) => [s.status, s.votePhase, Number(s.seq)])).toEqual([
      ["voting", "commit", Number(rows[2].seq)],
      ["voting", "reveal", Number(rows[3].seq)],
    ]);
    const newest = Number(rows[3].seq);
    const deadline = Date.now() + 10_000;
    while (!notified.includes(newest)) {
      if (Date.now() > deadline) throw new Error(`no notification of seq ${newest}: ${notified.join(",")}`);
      await new Promise((r) => listener.once("notification", r));
    }
  }, 60_000);
});
