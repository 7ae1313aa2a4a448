// Upstream discipline of the fetch layer: timeout, retries honouring Retry-After, per-host concurrency cap,
// coalescing of identical in-flight requests, and the error mapping (504 / 502).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { fetchUpstream, parseRetryAfter } from "@/lib/upstream/http";
import { pointUpstreamAt, type Stub, startStub } from "./stub-server";

const Anything = z.unknown();
const Ok = z.object({ ok: z.literal(true) });

let stub: Stub;
let restore: () => void;

beforeAll(async () => {
  stub = await startStub();
});
afterAll(async () => {
  await stub.close();
});
afterEach(() => restore?.());

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error("expected the call to fail");
}

describe("fetchUpstream", () => {
  it("answers a hung upstream with upstream_timeout (504) within the timeout", async () => {
    restore = pointUpstreamAt(stub.url, { UPSTREAM_TIMEOUT_MS: 600, UPSTREAM_MAX_RETRIES: 2 });
    stub.route("/data/hang", { hang: true });
    const started = Date.now();
    const error = await failure(fetchUpstream({ host: "data", path: "/hang" }, Anything));
    const elapsed = Date.now() - started;
    expect(error.code).toBe("upstream_timeout");
    expect(error.status).toBe(504);
    expect(elapsed).toBeGreaterThanOrEqual(550);
    expect(elapsed).toBeLessThan(600 + 400);
    expect(stub.count("/data/hang")).toBe(1); // the deadline is spent: no retry after a timeout
  });

  it("retries a 429 after the Retry-After it was given, then succeeds", async () => {
    restore = pointUpstreamAt(stub.url, { UPSTREAM_TIMEOUT_MS: 3000, UPSTREAM_MAX_RETRIES: 2 });
    const seenAt: number[] = [];
    stub.route("/data/limited", (_req, nth) => {
      seenAt.push(Date.now());
      return nth === 1 ? { status: 429, headers: { "retry-after": "1" }, json: { error: "slow down" } } : { json: { ok: true } };
    });
    const body = await fetchUpstream({ host: "data", path: "/limited" }, Ok);
    expect(body).toEqual({ ok: true });
    expect(seenAt).toHaveLength(2);
    expect(seenAt[1] - seenAt[0]).toBeGreaterThanOrEqual(950);
  });

  it("does not wait for a Retry-After beyond the deadline: fails at once with upstream_unavailable", async () => {
    restore = pointUpstreamAt(stub.url, { UPSTREAM_TIMEOUT_MS: 1000, UPSTREAM_MAX_RETRIES: 2 });
    stub.route("/data/limited-long", { status: 429, headers: { "retry-after": "30" }, json: {} });
    const started = Date.now();
    const error = await failure(fetchUpstream({ host: "data", path: "/limited-long" }, Anything));
    expect(error.code).toBe("upstream_unavailable");
    expect(Date.now() - started).toBeLessThan(900);
    expect(stub.count("/data/limited-long")).toBe(1);
  });

  it("retries 5xx with backoff up to UPSTREAM_MAX_RETRIES, then maps to upstream_unavailable (502)", async () => {
    restore = pointUpstreamAt(stub.url, { UPSTREAM_TIMEOUT_MS: 5000, UPSTREAM_MAX_RETRIES: 2 });
    stub.route("/gamma/broken", { status: 500, json: { error: "boom" } });
    const error = await failure(fetchUpstream({ host: "gamma", path: "/broken" }, Anything));
    expect(error.code).toBe("upstream_unavailable");
    expect(error.status).toBe(502);
    expect(stub.count("/gamma/broken")).toBe(3);
  });

  it("recovers when a 503 is followed by a good answer", async () => {
    restore = pointUpstreamAt(stub.url, { UPSTREAM_TIMEOUT_MS: 5000, UPSTREAM_MAX_RETRIES: 2 });
    stub.route("/clob/flaky", (_req, nth) => (nth === 1 ? { status: 503, json: {} } : { json: { ok: true } }));
    expect(await fetchUpstream({ host: "clob", path: "/flaky" }, Ok)).toEqual({ ok: true });
  });

  it("maps malformed and truncated JSON, and bodies of the wrong shape, to upstream_unavailable without retrying", async () => {
    restore = pointUpstreamAt(stub.url, { UPSTREAM_TIMEOUT_MS: 2000, UPSTREAM_MAX_RETRIES: 2 });
    stub.route("/data/truncated", { text: '[{"proxyWallet":"0xabc","si' });
    stub.route("/data/wrong-shape", { json: { ok: "yes" } });
    expect((await failure(fetchUpstream({ host: "data", path: "/truncated" }, Anything))).code).toBe("upstream_unavailable");
    expect((await failure(fetchUpstream({ host: "data", path: "/wrong-shape" }, Ok))).code).toBe("upstream_unavailable");
    expect(stub.count("/data/truncated")).toBe(1);
  });

  it("retries Cloudflare's 520–524 and its HTML pages (even with a 200) within the deadline", async () => {
    restore = pointUpstreamAt(stub.url, { UPSTREAM_TIMEOUT_MS: 5000, UPSTREAM_MAX_RETRIES: 2 });
    const html = "<!DOCTYPE html><html><head><title>522: Connection timed out</title></head></html>";
    for (const status of [520, 521, 522, 523, 524]) {
      stub.route(`/gamma/cf-${status}`, (_req, nth) =>
        nth === 1 ? { status, text: html, headers: { "content-type": "text/html" } } : { json: { ok: true } },
      );
      expect(await fetchUpstream({ host: "gamma", path: `/cf-${status}` }, Ok)).toEqual({ ok: true });
      expect(stub.count(`/gamma/cf-${status}`)).toBe(2);
    }
    stub.route("/gamma/challenge", (_req, nth) =>
      nth === 1
        ? { status: 200, text: "<html><title>Just a moment...</title></html>", headers: { "content-type": "text/html" } }
        : { json: { ok: true } },
    );
    expect(await fetchUpstream({ host: "gamma", path: "/challenge" }, Ok)).toEqual({ ok: true });
  });

  it("maps a refused connection to upstream_unavailable", async () => {
    const dead = await startStub();
    const url = dead.url;
    await dead.close();
    restore = pointUpstreamAt(url, { UPSTREAM_TIMEOUT_MS: 2000, UPSTREAM_MAX_RETRIES: 1 });
    expect((await failure(fetchUpstream({ host: "gamma", path: "/x" }, Anything))).code).toBe("upstream_unavailable");
  });

  it("answers null for a 404 only when the caller allows it", async () => {
    restore = pointUpstreamAt(stub.url, { UPSTREAM_TIMEOUT_MS: 2000 });
    expect(await fetchUpstream({ host: "gamma", path: "/nothing-here" }, Anything, { allowNotFound: true })).toBeNull();
    expect((await failure(fetchUpstream({ host: "gamma", path: "/nothing-here" }, Anything))).code).toBe("upstream_unavailable");
  });

  it("coalesces 50 identical concurrent requests into one upstream request; different params make two", async () => {
    restore = pointUpstreamAt(stub.url, { UPSTREAM_TIMEOUT_MS: 3000 });
    stub.route("/data/slow", { json: { ok: true }, delayMs: 150 });
    const same = await Promise.all(
      Array.from({ length: 50 }, () => fetchUpstream({ host: "data", path: "/slow", query: { a: "1", b: "2" } }, Ok)),
    );
    expect(same.every((b) => b?.ok === true)).toBe(true);
    expect(stub.count("/data/slow")).toBe(1);
    // Same parameters in another order are the same request.
    await Promise.all([
      fetchUpstream({ host: "data", path: "/slow", query: { x: "1", y: "2" } }, Ok),
      fetchUpstream({ host: "data", path: "/slow", query: { y: "2", x: "1" } }, Ok),
      fetchUpstream({ host: "data", path: "/slow", query: { x: "1", y: "3" } }, Ok),
    ]);
    expect(stub.count("/data/slow")).toBe(1 + 2);
  });

  it("keeps at most UPSTREAM_CONCURRENCY requests in flight per host", async () => {
    restore = pointUpstreamAt(stub.url, { UPSTREAM_TIMEOUT_MS: 5000, UPSTREAM_CONCURRENCY: 2 });
    let inFlight = 0;
    let peak = 0;
    stub.route("/clob/capped", async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 80));
      inFlight--;
      return { json: { ok: true } };
    });
    await Promise.all(Array.from({ length: 8 }, (_, i) => fetchUpstream({ host: "clob", path: "/capped", query: { i } }, Ok)));
    expect(stub.count("/clob/capped")).toBe(8);
    expect(peak).toBe(2);
  });
});

describe("parseRetryAfter", () => {
  it("reads delta-seconds and HTTP dates", () => {
    expect(parseRetryAfter("2")).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(parseRetryAfter("soon")).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
  });
});
