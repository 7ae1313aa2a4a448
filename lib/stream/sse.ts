// One client's server-sent-event stream: take a slot, replay from the database after the client's cursor, then
// continue with what the hub delivers, with no duplicate and no gap between the two (messages that arrive during the
// replay wait in a buffer and only those past the replay's last cursor are sent). Heartbeat comments keep proxies
// from closing an idle connection; the stream ends cleanly after STREAM_MAX_DURATION_S so that platforms with a
// function time limit (Vercel) end it on our terms, and the client reconnects with its cursor.
import type { ServerResponse } from "node:http";
import type { Tier } from "@/lib/auth/tiers";
import { type Db, getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { type Delivery, encodedMessage, getHub, type Hub, type HubSubscriber } from "./hub";
import { consume } from "@/lib/auth/ratelimit";
import { tierLimit } from "@/lib/auth/tiers";
import { acquireStreamSlots, LEASE_RENEW_MS } from "./limits";
import { toMessages } from "./messages";
import { prunedThrough, readEvents } from "./read";
import { cursorOf, encodeCursor, matches, seqOfCursor, type StreamFilter, type StreamMessage } from "./types";

export { formatMessage } from "./hub";

type StreamEndReason =
  | "max_duration"
  | "token_expired"
  | "revoked"
  | "expired"
  | "rotated"
  | "slow_consumer"
  | "unread"
  | "replay_limit"
  | "rate_limited"
  | "error";

const REPLAY_PAGE = 500;
/** Seqs of the log one replay query covers (the primary key bounds what it reads, whatever the filter). */
export const REPLAY_SPAN = 20_000;
/** Seqs of the log one request replays at most; the client resumes from the `event: gap` cursor after that. */
export const REPLAY_MAX_SPAN = 100_000;
/** A replay query on PostgreSQL that runs longer is cancelled (the stream ends with `reason: "error"`). */
export const REPLAY_STATEMENT_TIMEOUT_MS = 2_000;
/** A client that stops reading is cut off once this much is queued for it; it resumes with its cursor. */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;
/**
 * A body nobody starts reading within this long is given up and its slot released: a HEAD that reached the handler, a
 * client that reset before the headers went out, a platform that dropped the response without cancelling it — none
 * of them fires the abort signal or cancels the body (docs/stream.md "Slots").
 */
export const UNPULLED_DEADLINE_MS = 10_000;

export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
} as const;

export interface OpenStreamOptions {
  filter: StreamFilter;
  keyId: string;
  tier: Tier;
  /** The client's cursor (Last-Event-ID), already decoded; null = live from now. */
  cursor: bigint | null;
  signal: AbortSignal;
  /** When the short-lived token the stream was opened with expires (null for an API key): the stream ends then. */
  credentialExpiresAt?: Date | null;
  /** A dashboard visitor's client address: the stream also takes a slot of that address's slice (limits.ts). */
  dashboardAddress?: string | null;
  /** How long the body may go unread before the stream gives up (UNPULLED_DEADLINE_MS; tests shorten it). */
  unpulledDeadlineMs?: number;
  /** Seqs one request replays at most (REPLAY_MAX_SPAN; tests shorten it). */
  replayMaxSpan?: number;
  /** Told the rows the replay read once it is done (tests and the bench). */
  onReplayed?: (stats: { rows: number; ms: number }) => void;
}

const encoder = new TextEncoder();

/**
 * Set by the production entry (scripts/server.mjs): hands this request's Node response to `start` once Next has set the
 * status and headers of a bodiless 200, so the body is written straight to it (docs/stream.md "Memory"). Unset in
 * process (tests) and on Vercel: the body is then a web stream.
 */
const globalForBody = globalThis as unknown as { __predmktTakeBody?: (start: (response: ServerResponse) => void) => boolean };

export async function openStream(options: OpenStreamOptions): Promise<Response> {
  const { filter } = options;
  const lease = await acquireStreamSlots({ keyId: options.keyId, tier: options.tier, dashboardAddress: options.dashboardAddress ?? null });
  // From here on every way out gives the slot back exactly once: an abort while the hub or the database is awaited
  // (the listener below; a signal that already fired never fires again, hence the checks after each await), the
  // stream's own end (cleanup), or an error.
  let released = false;
  const releaseLease = () => {
    if (released) return;
    released = true;
    void lease.release();
  };
  const abortedEarly = () => releaseLease();
  options.signal.addEventListener("abort", abortedEarly, { once: true });
  let hub: Hub;
  let db: Db;
  try {
    hub = await getHub();
    db = await getDb();
  } catch (error) {
    releaseLease();
    throw error;
  }
  options.signal.removeEventListener("abort", abortedEarly);
  if (options.signal.aborted || released) {
    releaseLease();
    return new Response(null, { status: 200, headers: SSE_HEADERS }); // nobody is there to read it
  }
  const withAbnormal = filter.topics.includes("abnormal");
  // The stream's bounded queue: what is written waits here until the body is pulled (a pull takes all of it in one
  // write). Past MAX_QUEUED_BYTES the client is not keeping up: the queue is dropped and the stream ends with
  // `reason: "slow_consumer"`; the client resumes from its last id.
  let queue: Uint8Array[] = [];
  let queuedBytes = 0;
  let waiting: (() => void) | null = null;
  let ending = false; // the end message is queued: the body closes once it is read
  let closed = false; // removed from the hub, slot released
  let live = false;
  let lastSent = -1n;
  let pulled = false;
  let replayedSeqs = 0;
  const buffered: Delivery[] = [];
  const openedAt = Date.now();
  const maxMs = env.STREAM_MAX_DURATION_S * 1000;
  const tokenMs = options.credentialExpiresAt ? Math.max(0, options.credentialExpiresAt.getTime() - openedAt) : Infinity;
  const endsAt = openedAt + Math.min(maxMs, tokenMs);
  const unpulledAt = openedAt + (options.unpulledDeadlineMs ?? UNPULLED_DEADLINE_MS);
  const heartbeatMs = env.STREAM_HEARTBEAT_S * 1000;
  let heartbeatAt = openedAt + heartbeatMs;
  let renewAt = openedAt + LEASE_RENEW_MS;

  const enqueue = (bytes: Uint8Array) => {
    if (closed || ending) return;
    queue.push(bytes);
    queuedBytes += bytes.byteLength;
    // One batch larger than the bound is not a slow reader: a backlog of several past it is.
    if (queuedBytes > MAX_QUEUED_BYTES && queue.length > 1) {
      hub.slowConsumers++;
      close("slow_consumer");
    } else if (waiting) {
      hub.wake(subscriber);
    }
  };
  const write = (text: string) => enqueue(encoder.encode(text));
  const send = (messages: readonly StreamMessage[]) => {
    for (const m of messages) {
      if (m.cursor <= lastSent) continue;
      enqueue(encodedMessage(m));
      lastSent = m.cursor;
    }
  };
  // A batch wholly after what was sent goes out as the hub encoded it for every stream of this filter.
  const sendDelivery = (d: Delivery) => {
    if (d.first <= lastSent) return send(d.messages);
    enqueue(d.bytes);
    lastSent = d.last;
  };
  const cleanup = () => {
    if (closed) return;
    closed = true;
    hub.remove(subscriber);
    releaseLease();
  };
  const close = (reason: StreamEndReason) => {
    if (closed || ending) return;
    if (reason === "slow_consumer") {
      queue = [];
      queuedBytes = 0;
    }
    const end = encoder.encode(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
    queue.push(end);
    queuedBytes += end.byteLength;
    ending = true;
    // The end reaches a waiting reader now (the hub no longer paces a stream it has let go).
    const wakeUp = waiting;
    waiting = null;
    cleanup();
    wakeUp?.();
  };
  // The client went away (abort or cancel): nothing more will be read.
  const gone = () => {
    queue = [];
    queuedBytes = 0;
    cleanup();
    const wakeUp = waiting;
    waiting = null;
    wakeUp?.();
  };
  const subscriber: HubSubscriber = {
    filter,
    keyId: options.keyId,
    deliver: (delivery) => (live ? sendDelivery(delivery) : buffered.push(delivery)),
    close: (reason) => close(reason),
    flush: () => {
      const wakeUp = waiting;
      waiting = null;
      wakeUp?.();
    },
    tick: (now) => {
      if (now >= endsAt) return close(tokenMs < maxMs ? "token_expired" : "max_duration");
      // Nobody has read a byte by then: nobody will (see UNPULLED_DEADLINE_MS).
      if (!pulled && now >= unpulledAt) return close("unread");
      if (now >= heartbeatAt) {
        heartbeatAt = now + heartbeatMs;
        write(`: heartbeat ${new Date(now).toISOString()}\n\n`);
      }
      if (now >= renewAt) {
        renewAt = now + LEASE_RENEW_MS;
        void lease.renew();
      }
    },
  };

  // Everything up to `bound` is replayed from the database; everything after it comes from the hub.
  hub.add(subscriber);
  const bound = hub.lastSeq;

  // Everything through `seq` was replayed; the rest is for the next request. The gap carries the resume cursor as its
  // SSE id (so EventSource reconnects from it) and in its data; the stream then ends and the client reconnects.
  const resumeLater = (seq: number, reason: "replay_limit" | "rate_limited") => {
    const resume = encodeCursor(cursorOf(seq, "abnormal"));
    const detail =
      reason === "replay_limit"
        ? "The replay stopped at this request's bound; reconnect with this cursor to continue."
        : "Replay pages count against the key's per-minute limit, which is spent; reconnect with this cursor later.";
    write(`event: gap\nid: ${resume}\ndata: ${JSON.stringify({ reason, detail, last_event_id: resume })}\n\n`);
    close(reason);
  };

  const replay = async () => {
    const started = performance.now();
    try {
      await replayFromCursor();
    } finally {
      options.onReplayed?.({ rows: replayedSeqs, ms: performance.now() - started });
    }
    if (closed) return;
    live = true;
    for (const d of buffered.splice(0)) sendDelivery(d);
  };

  const replayFromCursor = async () => {
    const cursor = options.cursor;
    if (cursor === null) {
      lastSent = cursorOf(bound, "abnormal");
    } else {
      lastSent = cursor;
      const pruned = await prunedThrough(db);
      const from = seqOfCursor(cursor);
      if (from < pruned) {
        write(
          `event: gap\ndata: ${JSON.stringify({ reason: "cursor_expired", detail: "Events after this cursor are past the stream's retention (the tape's 48 h); replay starts at the oldest kept event.", last_event_id: encodeCursor(cursor) })}\n\n`,
        );
      } else if (from > bound) {
        write(
          `event: gap\ndata: ${JSON.stringify({ reason: "unknown_cursor", detail: "This cursor is newer than anything stored; the stream continues live from now.", last_event_id: encodeCursor(cursor) })}\n\n`,
        );
        lastSent = cursorOf(bound, "abnormal");
      }
      // The abnormal twin of the cursor's own trade comes after it, so the cursor's seq is read again.
      let after = Math.max(0, Math.min(from, bound) - 1);
      // One request replays at most `maxSpan` seqs of the log, `REPLAY_SPAN` per query, however rarely the filter
      // matches; past that the client is told where to resume (docs/stream.md "Replay").
      const stopAt = Math.min(bound, after + (options.replayMaxSpan ?? REPLAY_MAX_SPAN));
      for (let pages = 0; !closed && after < bound; pages++) {
        if (after >= stopAt) return resumeLater(after, "replay_limit");
        // Each page after the first is one more request against the caller's per-minute limit.
        if (pages > 0 && !(await consume(`key:${options.keyId}`, tierLimit(options.tier))).success) {
          return resumeLater(after, "rate_limited");
        }
        const upto = Math.min(stopAt, after + REPLAY_SPAN);
        const page = await readEvents(db, after, upto, REPLAY_PAGE, filter, { statementTimeoutMs: REPLAY_STATEMENT_TIMEOUT_MS });
        send((await toMessages(db, page.events, withAbnormal)).filter((m) => matches(filter, m)));
        const next = page.full && page.lastSeq !== null ? page.lastSeq : upto;
        // The log's rows in (after, next]: all a query on this primary-key range can have read.
        replayedSeqs += next - after;
        after = next;
      }
    }
  };

  write(`retry: ${env.STREAM_RETRY_MS}\n: stream open\n\n`);
  options.signal.addEventListener("abort", gone, { once: true });
  replay().catch((error) => {
    log.warn("stream replay failed", errorFields(error));
    close("error");
  });
  // The queue as one chunk (a pull or a write takes all of it).
  const takeQueue = () => {
    const chunk = queue.length === 1 ? queue[0] : Buffer.concat(queue);
    queue = [];
    queuedBytes = 0;
    return chunk;
  };

  // Under scripts/server.mjs: the body is written straight to Node's response, with the same pacing and bound as the
  // web stream below (docs/stream.md "Memory"). `out` writes what is queued; while the socket takes more it waits as
  // `waiting` for the hub's pacer, and while it does not (write() said so) for its `drain`.
  const writeTo = (response: ServerResponse) => {
    pulled = true;
    // Destroyed before Next let go of it (the client left while the route ran): the stream is over.
    if (response.destroyed) return gone();
    let blocked = false;
    const out = () => {
      if (response.destroyed) return;
      if (queue.length && !response.write(takeQueue())) {
        blocked = true;
        return;
      }
      if (closed) {
        if (!response.writableEnded) response.end();
        return;
      }
      waiting = out;
    };
    response.on("drain", () => {
      if (!blocked) return;
      blocked = false;
      out();
    });
    // The client went away (or the response failed): nothing more will be read. The hand-off let go of Next's `error`
    // listener, and an `error` nobody listens to would end the process.
    response.once("close", gone);
    response.on("error", gone);
    out();
  };
  if (globalForBody.__predmktTakeBody?.(writeTo)) return new Response(null, { status: 200, headers: SSE_HEADERS });

  // Elsewhere one pull-only body (highWaterMark 0): it asks only when its reader does, so a first pull proves that
  // someone reads it, and nothing is buffered but the stream's own queue. A pull takes the whole queue, or waits for
  // the hub's pacer to say there is something (docs/stream.md "Fan-out").
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(c) {
        pulled = true;
        while (queue.length === 0 && !closed) await new Promise<void>((resolve) => (waiting = resolve));
        if (queue.length) c.enqueue(takeQueue());
        if (closed) c.close();
      },
      cancel() {
        gone();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}
