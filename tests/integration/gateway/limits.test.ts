// Findings 6-9 against the real server: streamed body caps, cron guessing, browser-protection headers on pages, API and
// embeds, and the per-address budget of server-rendered pages.
import { Agent, request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "../../helpers/http";
import { parseAnswer, stubbornUpload } from "../../helpers/upload";
import { createTestKey } from "../../helpers/keys";
import { type RunningApp, startApp } from "../../helpers/server";
import { HELD_LIMITER_CLOCK } from "../../helpers/rate-window";

let app: RunningApp;
let key: string;
beforeAll(async () => {
  app = await startApp({
    env: {
      RATE_LIMIT_PAGES_PER_IP: "6",
      RATE_LIMIT_CRON_FAILURES_PER_IP: "3",
      EMBED_FRAME_ANCESTORS: "https://partner.example",
      BODY_TIMEOUT_MS: "1500",
      // Every address's budget counted in one window: each test spends its own address's, never at a window's edge.
      ...HELD_LIMITER_CLOCK,
    },
  });
  key = await createTestKey(app, "pro");
});
afterAll(() => app?.stop());

describe("request bodies", () => {
  it("a chunked body over the cap is refused with 413 while it streams, and a small chunked body is read", async () => {
    const chunks = Array.from({ length: 144 }, () => Buffer.alloc(64 * 1024, 0x20)); // 9 MB, no Content-Length
    const huge = await request(`${app.url}/api/auth/token`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      chunks,
    });
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.body).code).toBe("payload_too_large");
    const small = await request(`${app.url}/api/auth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      chunks: [Buffer.from(`{"api_key":"${key}",`), Buffer.from('"ttl_seconds":120}')],
    });
    expect(small.status).toBe(200);
    expect(JSON.parse(small.body).expires_in).toBe(120);
  });

  it("a client still sending a 50 MB body, reading nothing until it has sent it all, reads the 413 and its request id", async () => {
    for (const chunked of [false, true]) {
      const result = await stubbornUpload(app.port, { bytes: 50 * 1024 * 1024, chunked, headers: { "content-type": "application/json" } });
      expect(result.error, `chunked: ${chunked}`).toBeUndefined();
      expect(result.status).toBe(413);
      const { headers, body } = parseAnswer(result.received);
      expect(headers.connection).toBe("close");
      expect(headers["content-type"]).toBe("application/problem+json");
      expect(body).toMatchObject({ status: 413, code: "payload_too_large", request_id: headers["x-request-id"] });
      // The log line of the refusal carries the same id.
      expect(app.logs()).toContain(`"request_id":"${headers["x-request-id"]}"`);
    }
  }, 120_000);

  it("keep-alive clients never get their next request on a refused connection", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (body: Buffer) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          `${app.url}/api/auth/token`,
          { method: "POST", agent, headers: { authorization: `Bearer ${key}` } },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    try {
      for (let round = 0; round < 3; round++) {
        expect(await post(Buffer.alloc(2 * 1024 * 1024, 0x20))).toBe(413);
        for (let i = 0; i < 3; i++) expect(await post(Buffer.from('{"ttl_seconds":120}'))).toBe(200);
      }
    } finally {
      agent.destroy();
    }
    // fetch (undici) pools connections too.
    for (let round = 0; round < 3; round++) {
      const refused = await fetch(`${app.url}/api/auth/token`, { method: "POST", body: Buffer.alloc(64 * 1024, 0x20) });
      expect(refused.status).toBe(413);
      await refused.text();
      const next = await Promise.all(
        Array.from({ length: 3 }, () =>
          fetch(`${app.url}/api/auth/token`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: '{"ttl_seconds":120}' }),
        ),
      );
      expect(next.map((r) => r.status)).toEqual([200, 200, 200]);
      await Promise.all(next.map((r) => r.text()));
    }
  }, 120_000);

  it("a slow-loris body under the cap is cut at BODY_TIMEOUT_MS with a 408", async () => {
    const started = performance.now();
    const slow = await request(`${app.url}/api/auth/token`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      // 400 one-byte chunks, one every 5 ms or so: about 2 s or more, under the 16 KiB cap.
      chunks: Array.from({ length: 400 }, () => Buffer.from(" ")),
    });
    expect(slow.status).toBe(408);
    expect(JSON.parse(slow.body)).toMatchObject({ code: "request_timeout", request_id: slow.headers["x-request-id"] });
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe("cron secret guessing", () => {
  it("failed cron authentications are limited per address; then even the right secret from there waits", async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (await request(`${app.url}/api/cron/sample`, { localAddress: "127.0.0.5", headers: { authorization: `Bearer guess-${i}` } }))
          .status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    // Another address is not affected.
    expect(
      (await request(`${app.url}/api/cron/sample`, { localAddress: "127.0.0.6", headers: { authorization: "Bearer nope" } })).status,
    ).toBe(401);
  });
});

describe("browser-protection headers", () => {
  const expectBase = (headers: Record<string, unknown>, what: string) => {
    expect(headers["x-content-type-options"], what).toBe("nosniff");
    expect(headers["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
    expect(headers["strict-transport-security"], `${what}: no HSTS over plain HTTP`).toBeUndefined();
  };

  it("pages: a nonce'd CSP that forbids framing, and the nonce is on every script Next renders", async () => {
    const res = await request(`${app.url}/docs`, { localAddress: "127.0.0.7" });
    expect(res.status).toBe(200);
    expectBase(res.headers, "/docs");
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(res.headers["x-frame-options"]).toBe("DENY");
    const scripts = [...res.body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("embeds: framable by the configured allow-list only", async () => {
    const res = await request(`${app.url}/embed/events/no-such-event`, { localAddress: "127.0.0.7" });
    expectBase(res.headers, "/embed");
    expect(String(res.headers["content-security-policy"])).toContain("frame-ancestors https://partner.example");
    expect(res.headers["x-frame-options"]).toBeUndefined();
  });

  it("API answers, errors and static files carry them too; HSTS only over HTTPS", async () => {
    for (const path of ["/api/health", "/api/openapi.json", "/api/predmkt/stats", "/api/nope"]) {
      const res = await request(`${app.url}${path}`, { localAddress: "127.0.0.8" });
      expectBase(res.headers, path);
      expect(res.headers["content-security-policy"], path).toBe("default-src 'none'; frame-ancestors 'none'");
    }
    const page = await request(`${app.url}/docs`, { localAddress: "127.0.0.8" });
    const asset = /src="(\/_next\/static\/[^"]+\.js)"/.exec(page.body)?.[1];
    expect(asset).toBeTruthy();
    expectBase((await request(`${app.url}${asset}`)).headers, asset!);
  });
});

describe("server-rendered pages", () => {
  it("are limited per address with a friendly 429 page; another address is unaffected", async () => {
    const statuses = [];
    let last = await request(`${app.url}/oracle`, { localAddress: "127.0.0.9" });
    statuses.push(last.status);
    for (let i = 0; i < 7; i++) {
      last = await request(`${app.url}/movers`, { localAddress: "127.0.0.9" });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 6).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(6)).toEqual([429, 429]);
    expect(last.headers["content-type"]).toContain("text/html");
    expect(Number(last.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(last.body).toContain("Slow down a little");
    expect((await request(`${app.url}/movers`, { localAddress: "127.0.0.10" })).status).not.toBe(429);
  });

  it("link prefetches are free; navigations, and documents claiming to be prefetches, count", async () => {
    const from = { localAddress: "127.0.0.11" };
    // Next answers an RSC request whose `_rsc` does not match its router headers with a 307 to the right one, as the
    // router would have sent it; follow it like the router does (a prefetch's 307 is as free as the prefetch).
    const routerRequest = async (headers: Record<string, string>, path = "/movers") => {
      const first = await request(`${app.url}${path}`, { ...from, headers });
      if (first.status !== 307) return first;
      return request(new URL(String(first.headers.location), app.url).href, { ...from, headers });
    };
    // The router's prefetch (what <Link> sends for every link on screen): RSC, stops at the loading boundary.
    const prefetch = { rsc: "1", "next-router-prefetch": "1" };
    for (let i = 0; i < 12; i++) {
      const res = await routerRequest(prefetch);
      expect(res.status, `prefetch ${i}`).toBe(200);
      expect(res.headers["content-type"]).toContain("text/x-component");
    }
    const counted = [
      await routerRequest({ rsc: "1" }, "/movers?_rsc"), // a router navigation (no router state: an empty `_rsc`)
      await request(`${app.url}/movers`, { ...from, headers: { "next-router-prefetch": "1" } }), // a document
      await request(`${app.url}/movers`, { ...from, headers: { purpose: "prefetch" } }), // a browser's document prefetch
      await request(`${app.url}/movers`, from),
      await request(`${app.url}/movers`, from),
      await request(`${app.url}/movers`, from),
    ];
    expect(counted.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const over = await request(`${app.url}/movers`, from);
    expect(over.status).toBe(429);
    expect((await routerRequest(prefetch)).status).toBe(200);
  });
});
