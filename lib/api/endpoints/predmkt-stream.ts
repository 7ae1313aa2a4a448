// Contract of the live stream (server-sent events). The messages' `data` are exactly the list endpoints' items.
import { z } from "zod";
import { STREAM_TOPICS } from "@/lib/stream/types";
import { defineEndpoint } from "../contract";
import { marketIdParam, numberParam, slugParam } from "../schemas";

const topicsParam = z
  .string()
  // The list's shape as a pattern too, so the OpenAPI document tells a client (and the contract fuzzer) what it accepts.
  .regex(
    new RegExp(`^(?:${STREAM_TOPICS.join("|")})(?:,(?:${STREAM_TOPICS.join("|")}))*$`),
    `must be a comma-separated subset of ${STREAM_TOPICS.join(", ")}`,
  )
  .default("trades")
  .transform((v) => [...new Set(v.split(",").map((t) => t.trim()))])
  .pipe(z.array(z.enum(STREAM_TOPICS, { error: `each topic must be one of ${STREAM_TOPICS.join(", ")}` })).min(1))
  .describe(`Comma-separated subset of ${STREAM_TOPICS.join(", ")} (default trades)`);

export const streamEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/predmkt/stream",
  summary: "Live stream of trades, ticks, abnormal trades and resolution transitions (server-sent events)",
  description:
    "A `text/event-stream` of what the service stores, as it is stored: `event: trade` (data = one `/trades` item), " +
    "`event: tick` (one `/live` item), `event: abnormal` (one `/abnormal` item, right after its trade) and " +
    "`event: resolution` (one UMA dispute's lifecycle transition as the oracle index saw it: `transition` = disputed, " +
    "queued, voting, commit, reveal, rolled, dvm_resolved, resolved, settled or deleted; `from` and `to` states, `at` = the chain time where known, " +
    "the index's `block_number` / `polygon_block_number`, the dispute id and its `market` {id, condition_id, slug, " +
    "event_slug, question, resolution_status} or null). `market` and `event` filter all topics; `min_usd` only trades. Every " +
    "message has an `id:` — an opaque cursor that strictly increases. Resume by sending it back as the " +
    "`Last-Event-ID` header (EventSource does this by itself) or `?last_event_id=`: everything after it is replayed " +
    "from the database (the tape's 48 h), then the stream continues live, with no duplicate and no gap. A cursor " +
    "older than the retention first gets `event: gap`. A `:` comment line every 15 s is a heartbeat; `retry:` " +
    "advises the reconnect delay; after the maximum duration the stream sends `event: end` and closes, and the " +
    "client reconnects with its cursor. Browsers pass a token as `?token=` (EventSource cannot set headers). " +
    "Concurrent streams per key are limited by tier (starter 2, pro 10, enterprise 100): one more is a 429 with " +
    "`Retry-After`; opening a stream counts as one request. A revoked key's streams are closed.",
  tags: ["Live stream"],
  access: "key",
  contentType: "text/event-stream",
  query: z.object({
    topics: topicsParam,
    min_usd: numberParam({ min: 0, default: 0, description: "Minimum USD size of trades and abnormal trades" }),
    market: marketIdParam.optional(),
    event: slugParam.optional().describe("Event slug: only this event's markets"),
    last_event_id: z
      .string()
      .regex(/^[0-9a-z]{1,13}$/, "must be an id received from this stream")
      .optional()
      .describe("Resume after this message id (the Last-Event-ID header wins when both are sent)"),
  }),
  response: z.string().describe("text/event-stream messages: `event:`, `id:`, `data:` (one JSON object)"),
  errors: [404],
});

export const endpoints = [streamEndpoint];
