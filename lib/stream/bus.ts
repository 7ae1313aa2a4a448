// How an instance learns that events were stored: one subscription per process, whatever the number of clients.
// Every insert into the stream log NOTIFYs `predmkt_stream` with the newest seq at commit (database triggers), so:
// - embedded PGlite: the server process owns the database and listens in process;
// - PostgreSQL: one dedicated connection LISTENs;
// - Redis (REDIS_URL with PostgreSQL): instances SUBSCRIBE to `predmkt:stream` instead, and the worker relays the
//   database's notifications there (one LISTEN connection in all, useful behind PgBouncer's transaction pooling,
//   which cannot carry LISTEN).
// A notification only says "stored up to seq N"; the hub reads the rows itself, so a lost message is repaired by
// the next one (and by the hub's slow catch-up read).
import { backoffMs } from "@/lib/backoff";
import IORedis from "ioredis";
import pg from "pg";
import { getEmbeddedPglite } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";

export const DB_CHANNEL = "predmkt_stream";
export const REDIS_CHANNEL = "predmkt:stream";

export type BusKind = "pglite" | "postgres" | "redis";

export interface Subscription {
  kind: BusKind;
  close: () => Promise<void>;
}

export function busKind(): BusKind {
  if (env.embeddedDatabase) return "pglite";
  return env.REDIS_URL ? "redis" : "postgres";
}

const parseSeq = (payload: string | undefined | null): number | null => {
  const n = Number(payload);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

/** LISTENs on PostgreSQL with one connection, reconnecting with backoff; `onSeq` gets each notified seq. */
export function listenPostgres(connectionString: string, onSeq: (seq: number) => void, onReconnect?: () => void): Subscription {
  let client: pg.Client | null = null;
  let closed = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;
  const connect = async () => {
    if (closed) return;
    const c = new pg.Client({ connectionString });
    client = c;
    c.on("notification", (msg) => {
      const seq = parseSeq(msg.payload);
      if (msg.channel === DB_CHANNEL && seq !== null) onSeq(seq);
    });
    c.on("error", (error) => {
      log.warn("stream bus: LISTEN connection failed", errorFields(error));
      void c.end().catch(() => undefined);
      schedule();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${DB_CHANNEL}`);
      if (attempt > 0) onReconnect?.();
      attempt = 0;
    } catch (error) {
      log.warn("stream bus: LISTEN connection failed", errorFields(error));
      void c.end().catch(() => undefined);
      schedule();
    }
  };
  const schedule = () => {
    if (closed || timer) return;
    attempt++;
    timer = setTimeout(
      () => {
        timer = undefined;
        void connect();
      },
      backoffMs(attempt, { baseMs: 250, maxMs: 30_000 }),
    );
    timer.unref?.();
  };
  void connect();
  return {
    kind: "postgres",
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      await client?.end().catch(() => undefined);
    },
  };
}

export async function subscribeStored(onSeq: (seq: number) => void, onReconnect: () => void): Promise<Subscription> {
  const kind = busKind();
  if (kind === "pglite") {
    const pglite = await getEmbeddedPglite();
    if (!pglite) throw new Error("embedded database not open");
    const unlisten = await pglite.listen(DB_CHANNEL, (payload) => {
      const seq = parseSeq(payload);
      if (seq !== null) onSeq(seq);
    });
    return { kind, close: () => unlisten() };
  }
  if (kind === "redis") {
    const client = new IORedis(env.REDIS_URL!, { maxRetriesPerRequest: null, retryStrategy: (times) => Math.min(times * 200, 5000) });
    client.on("error", () => undefined); // reconnects by itself; the catch-up read covers the outage
    client.on("ready", () => void client.subscribe(REDIS_CHANNEL).then(onReconnect, () => undefined));
    client.on("message", (channel, payload) => {
      const seq = parseSeq(payload);
      if (channel === REDIS_CHANNEL && seq !== null) onSeq(seq);
    });
    return { kind, close: async () => void client.disconnect() };
  }
  return listenPostgres(env.DATABASE_URL!, onSeq, onReconnect);
}

/** The worker's relay from the database's notifications to Redis (only when instances subscribe through Redis). */
export function relayToRedis(): Subscription | null {
  if (busKind() !== "redis") return null;
  const publisher = new IORedis(env.REDIS_URL!, { maxRetriesPerRequest: 2 });
  publisher.on("error", () => undefined);
  const listen = listenPostgres(env.DATABASE_URL!, (seq) => void publisher.publish(REDIS_CHANNEL, String(seq)).catch(() => undefined));
  return {
    kind: "redis",
    close: async () => {
      await listen.close();
      publisher.disconnect();
    },
  };
}
