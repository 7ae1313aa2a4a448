// GET /api/predmkt/stream end to end on embedded PGlite: production server + simulator, events stored by sampler
// passes through the cron route (the sampler-only ingest), read through the gateway like every client.
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isListEndpoint } from "@/lib/api/csv";
import { allEndpoints } from "@/lib/api/endpoints";
import { signAccessToken } from "@/lib/auth/jwt";
import type { Tier } from "@/lib/auth/tiers";
import { request } from "../../helpers/http";
import { createTestKey, revokeTestKey } from "../../helpers/keys";
import { pollUntil } from "../../helpers/poll";
import { openSse, type SseClient, type SseMessage } from "../../helpers/sse";
import { type Stack, startStack } from "../../helpers/stack";

describe("live stream (sampler ingest, embedded database)", () => {
  let stack: Stack;
  let url: (query?: string, key?: string) => string;
  let firstPassTrades = 0;
  let everything: SseMessage[] = [];

  beforeAll(async () => {
    stack = await startStack({
      chains: false,
      env: { KEY_CACHE_TTL_S: "2", STREAM_HEARTBEAT_S: "1", STREAM_LIMIT_DASHBOARD_PER_ADDRESS: "2" },
    });
    url = (query = "", key = stack.key) => `${stack.app.url}/api/predmkt/stream?api_key=${key}${query ? `&${query}` : ""}`;
  });
  afterAll(() => stack?.stop());

  it("refuses a request without credentials with 401 problem+json", async () => {
    const res = await fetch(`${stack.app.url}/api/predmkt/stream`);
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect((await res.json()).code).toBe("missing_credentials");
  });

  it("refuses bad parameters with 400 before the stream opens", async () => {
    for (const [query, parameter] of [
      ["topics=trades,bogus", "topics"],
      ["topics=", "topics"],
      ["min_usd=-1", "min_usd"],
      ["market=abc", "market"],
      ["event=Not_A_Slug", "event"],
      ["last_event_id=!!", "last_event_id"],
    ]) {
      const res = await fetch(url(query));
      expect(res.status, query).toBe(400);
      expect(res.headers.get("content-type"), query).toBe("application/problem+json");
      expect((await res.json()).errors[0].parameter, query).toBe(parameter);
    }
    const header = await fetch(url(), { headers: { "last-event-id": "not a cursor" } });
    expect(header.status).toBe(400);
    expect((await header.json()).errors[0].parameter).toBe("Last-Event-ID");
    const unknown = await fetch(url("event=no-such-event"));
    expect(unknown.status).toBe(404);
  });

  it("delivers every stored trade once, in order, as the /trades item", async () => {
    const stream = await openSse(url("topics=trades,ticks"));
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const res = await stack.samplePass();
    const pass = (await res.json()).data;
    expect(pass.status).toBe("ok");
    firstPassTrades = pass.counts.trades;
    expect(firstPassTrades).toBeGreaterThan(100);
    await stream.waitFor((m) => m.filter((x) => x.event === "trade").length >= firstPassTrades, 30_000, "every trade of the pass");
    // A little longer: nothing beyond the pass's own trades may arrive (no duplicate).
    await stream.waitFor(() => stream.comments.some((c) => c.startsWith("heartbeat")), 5000, "a heartbeat");
    stream.close();
    const trades = stream.messages.filter((m) => m.event === "trade");
    expect(trades.length).toBe(firstPassTrades);
    expect(new Set(trades.map((t) => t.data.id)).size).toBe(firstPassTrades);
    expect(stream.retry).toBeGreaterThan(0);
    // Cursors strictly increase across all messages.
    const cursors = stream.messages.map((m) => parseInt(m.id!, 36));
    for (let i = 1; i < cursors.length; i++) expect(cursors[i]).toBeGreaterThan(cursors[i - 1]);
    expect(stream.messages.some((m) => m.event === "tick")).toBe(true);
    // Items are exactly the list endpoint's items.
    const list = await (
      await fetch(`${stack.app.url}/api/predmkt/trades?limit=500`, { headers: { authorization: `Bearer ${stack.key}` } })
    ).json();
    const byId = new Map(trades.map((t) => [t.data.id, t.data]));
    expect(list.data.length).toBeGreaterThan(0);
    for (const item of list.data) expect(byId.get(item.id)).toEqual(item);
    const ticks = await (
      await fetch(`${stack.app.url}/api/predmkt/live?limit=5`, { headers: { authorization: `Bearer ${stack.key}` } })
    ).json();
    expect(Object.keys(stream.messages.find((m) => m.event === "tick")!.data).sort()).toEqual(Object.keys(ticks.data[0]).sort());
    everything = stream.messages;
  });

  it("resumes after a cursor with no duplicate and no gap (Last-Event-ID header and ?last_event_id=)", async () => {
    const cut = Math.floor(everything.length / 3);
    const expected = everything.slice(cut + 1).map((m) => m.id);
    for (const how of ["header", "query"] as const) {
      const stream =
        how === "header"
          ? await openSse(url("topics=trades,ticks"), { "last-event-id": everything[cut].id! })
          : await openSse(url(`topics=trades,ticks&last_event_id=${everything[cut].id}`));
      await stream.waitFor((m) => m.length >= expected.length, 30_000, `the replay (${how})`);
      stream.close();
      expect(stream.messages.map((m) => m.id)).toEqual(expected);
    }
  });

  it("filters by topic, minimum size, market and event", { timeout: 240_000 }, async () => {
    const trades = everything.filter((m) => m.event === "trade");
    const check = async (query: string, keep: (m: SseMessage) => boolean) => {
      const expected = everything.filter(keep).map((m) => m.id);
      expect(expected.length, query).toBeGreaterThan(0);
      const stream = await openSse(url(`${query}&last_event_id=0`));
      await stream.waitFor((m) => m.length >= expected.length, 90_000, query);
      await stream.waitFor(() => stream.comments.some((c) => c.startsWith("heartbeat")), 5000, "a heartbeat");
      stream.close();
      expect(
        stream.messages.map((m) => m.id),
        query,
      ).toEqual(expected);
    };
    await check("topics=ticks", (m) => m.event === "tick");
    await check("min_usd=100", (m) => m.event === "trade" && (m.data.usd_size as number) >= 100);
    const market = trades.find((t) => t.data.market_id)!.data;
    await check(`market=${market.market_id}`, (m) => m.event === "trade" && m.data.market_id === market.market_id);
    await check(`market=${market.condition_id}&topics=trades,ticks`, (m) => m.data.market_id === market.market_id);
    await check(`event=${market.event_slug}`, (m) => m.event === "trade" && m.data.event_slug === market.event_slug);
  });

  it("every list endpoint answers CSV (?format=csv or Accept: text/csv) that parses back to its JSON items", async () => {
    const auth = { authorization: `Bearer ${stack.key}` };
    const lists = allEndpoints.filter((c) => isListEndpoint(c) && c.path.startsWith("/api/predmkt/") && !c.path.includes("{"));
    expect(lists.map((c) => c.path)).toContain("/api/predmkt/trades");
    let rowsChecked = 0;
    for (const contract of lists) {
      // Strict parameters: `limit` only where the endpoint takes one (an unknown parameter is a 400).
      // The leaderboard is capped at 50 rows, as Polymarket's is.
      const limit =
        contract.query && "limit" in contract.query.shape ? [contract.path.endsWith("/leaderboard") ? "limit=50" : "limit=100"] : [];
      const path = `${contract.path}?${limit.join("&")}`;
      const json = await (await fetch(`${stack.app.url}${path}`, { headers: auth })).json();
      for (const [how, res] of [
        ["format", await fetch(`${stack.app.url}${contract.path}?${[...limit, "format=csv"].join("&")}`, { headers: auth })],
        ["accept", await fetch(`${stack.app.url}${path}`, { headers: { ...auth, accept: "text/csv" } })],
      ] as const) {
        expect(res.status, `${path} ${how}`).toBe(200);
        expect(res.headers.get("content-type"), path).toMatch(/^text\/csv/);
        const text = await res.text();
        const records = parse<Record<string, string>>(text, { columns: true });
        expect(records.length, path).toBe(json.data.length);
        const header = text.slice(0, text.indexOf("\r\n")).split(",");
        if (json.data.length) expect(header.sort(), path).toEqual(Object.keys(json.data[0]).sort());
        json.data.forEach((item: Record<string, unknown>, i: number) => {
          const expected = Object.fromEntries(
            Object.entries(item).map(([k, v]) => [k, v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v)]),
          );
          expect(records[i], `${path} row ${i}`).toEqual(expected);
        });
        rowsChecked += records.length;
      }
    }
    expect(rowsChecked).toBeGreaterThan(200);
    const bad = await fetch(`${stack.app.url}/api/predmkt/trades?format=xml`, { headers: auth });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0].parameter).toBe("format");
    const notList = await fetch(`${stack.app.url}/api/predmkt/stats?format=csv`, { headers: auth });
    expect(notList.status).toBe(400);
    const preferred = await fetch(`${stack.app.url}/api/predmkt/stats`, { headers: { ...auth, accept: "text/csv" } });
    expect(preferred.headers.get("content-type")).toBe("application/json");
  });

  it("limits concurrent streams per key by tier with 429 and Retry-After", async () => {
    const starter = await createTestKey(stack.app, "starter");
    const open: SseClient[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const s = await openSse(url("", starter));
        expect(s.status).toBe(200);
        open.push(s);
      }
      const third = await fetch(url("", starter));
      expect(third.status).toBe(429);
      expect(third.headers.get("content-type")).toBe("application/problem+json");
      expect(Number(third.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      open.pop()!.close();
      // The slot is released when the server sees the connection close.
      const status = await pollUntil(
        async () => {
          const again = await openSse(url("", starter));
          if (again.status === 200) open.push(again);
          return again.status;
        },
        (status) => status !== 429,
        10_000,
        100,
        "the closed stream's slot released",
      );
      expect(status).toBe(200);
    } finally {
      for (const s of open) s.close();
    }
  });

  it("gives each dashboard visitor's address its own slice of the dashboard key's streams", async () => {
    // A stream opened from a chosen loopback source address (a second client is a second address), kept open.
    const openFrom = (streamUrl: string, localAddress: string) =>
      new Promise<{ status: number; retryAfter: string | undefined; body: Promise<string>; close: () => void }>((resolve, reject) => {
        const req = http.get(streamUrl, { localAddress, headers: { accept: "text/event-stream" } }, (res) => {
          const parts: Buffer[] = [];
          const body = new Promise<string>((done) => {
            res.on("data", (d: Buffer) => parts.push(d));
            res.on("end", () => done(Buffer.concat(parts).toString("utf8")));
            res.on("error", () => done(Buffer.concat(parts).toString("utf8")));
          });
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"], body, close: () => req.destroy() });
        });
        req.on("error", reject);
      });
    const tokenFrom = async (localAddress: string) =>
      (JSON.parse((await request(`${stack.app.url}/api/dashboard/token`, { localAddress })).body) as { token: string }).token;
    const streamUrl = (token: string) => `${stack.app.url}/api/predmkt/stream?token=${token}`;
    const open: { close: () => void }[] = [];
    try {
      const first = await tokenFrom("127.0.0.5");
      for (let i = 0; i < 2; i++) {
        const s = await openFrom(streamUrl(first), "127.0.0.5");
        expect(s.status).toBe(200);
        open.push(s);
      }
      // The dashboard key (enterprise) has room for many more, but this address's slice (2) is full.
      const third = await openFrom(streamUrl(first), "127.0.0.5");
      expect(third.status).toBe(429);
      expect(Number(third.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(await third.body).detail).toMatch(/dashboard streams per client address/);
      // Another visitor, with the same kind of token, still gets a stream.
      const other = await openFrom(streamUrl(await tokenFrom("127.0.0.6")), "127.0.0.6");
      expect(other.status).toBe(200);
      open.push(other);
      // An API key is not a dashboard visitor: streams on it are counted per key only, from any address.
      const keyed = await openFrom(url(), "127.0.0.5");
      expect(keyed.status).toBe(200);
      open.push(keyed);
      // Closing one frees the slot of that address.
      open.shift()!.close();
      const status = await pollUntil(
        async () => {
          const again = await openFrom(streamUrl(first), "127.0.0.5");
          if (again.status === 200) open.push(again);
          else again.close();
          return again.status;
        },
        (status) => status !== 429,
        10_000,
        100,
        "the address's slot released",
      );
      expect(status).toBe(200);
    } finally {
      for (const s of open) s.close();
    }
  });

  it("ends a stream opened with a short-lived token when the token expires", async () => {
    // A 3-second token for the stack's key, signed with the stack's own secret (the token route's minimum is longer).
    const minted = await fetch(`${stack.app.url}/api/auth/token`, { method: "POST", headers: { authorization: `Bearer ${stack.key}` } });
    const { sub, tier } = decodeJwt(((await minted.json()) as { token: string }).token) as { sub: string; tier: Tier };
    const secret = JSON.parse(readFileSync(path.join(stack.app.dataDir, "secrets.json"), "utf8")).JWT_SECRET as string;
    const short = await signAccessToken(sub, tier, 3, Date.now(), secret);
    const stream = await openSse(`${stack.app.url}/api/predmkt/stream?token=${short.token}`);
    expect(stream.status).toBe(200);
    await stream.ended;
    expect(Date.now()).toBeGreaterThanOrEqual(short.expiresAt.getTime() - 1000);
    expect(stream.messages.at(-1)).toMatchObject({ event: "end", data: { reason: "token_expired" } });
  });

  it("closes a revoked key's streams within KEY_CACHE_TTL_S", async () => {
    const key = await createTestKey(stack.app, "pro");
    const stream = await openSse(url("", key));
    expect(stream.status).toBe(200);
    const revokedAt = Date.now();
    await revokeTestKey(stack.app, key);
    await stream.ended;
    expect(Date.now() - revokedAt).toBeLessThan(2000 + 1500);
    expect(stream.messages.at(-1)).toMatchObject({ event: "end", data: { reason: "revoked" } });
    // The gateway refuses the key itself once its key cache (2 s here) has expired.
    await pollUntil(
      async () => {
        const again = await openSse(url("", key));
        again.close();
        return again.status;
      },
      (status) => status === 401,
      4000,
      100,
      "the revoked key refused",
    );
  });
});
