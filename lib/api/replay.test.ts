import { afterEach, describe, expect, it } from "vitest";
import { type AnswerVersion, cachedAnswer, clearAnswerCache, respondCached } from "./cached-answer";
import { clearReplay, rememberReplay, replayAnswer, replayKey } from "./replay";

const request = (url: string, headers: Record<string, string> = {}) =>
  Object.assign(new Request(url, { headers }), { nextUrl: new URL(url) });

/** Serves an answer through the cache as withApi does, and remembers it for the gateway; returns its ETag. */
async function answered(url: string, body: unknown, identity: AnswerVersion): Promise<string> {
  const response = await respondCached(
    request(url),
    `GET ${new URL(url).pathname}`,
    cachedAnswer(identity, () => body),
    new Headers(),
  );
  const etag = response.headers.get("etag")!;
  rememberReplay(new URL(url), { etag, version: identity.version, current: identity.current!, route: "/api/x", method: "GET" });
  return etag;
}

afterEach(() => {
  clearReplay();
  clearAnswerCache();
});

describe("the gateway's replay of cached answers", () => {
  it("keys a request by its path and query as sent, without credentials", () => {
    expect(replayKey(new URL("http://h/api/x?b=2&a=1&api_key=pmk_secret&token=t"))).toBe("/api/x?b=2&a=1");
    expect(replayKey(new URL("http://h/api/x?token=t"))).toBe("/api/x");
    expect(replayKey(new URL("http://h/api/x?a=1&b=2"))).not.toBe(replayKey(new URL("http://h/api/x?b=2&a=1")));
  });

  it("replays the bytes and the ETag while the version holds, a 304 for a matching If-None-Match, nothing after", async () => {
    let version = "pass:1";
    const identity = (): AnswerVersion => ({ version, maxAgeS: 42, shared: true, current: async () => identity() });
    const url = "http://h/api/x?window=1h";
    const etag = await answered(url, { data: [1, 2, 3] }, identity());

    const replayed = await replayAnswer(request(`${url}&api_key=pmk_other`), { "X-Request-Id": "r2" });
    expect(replayed?.route).toBe("/api/x");
    expect(replayed!.response.status).toBe(200);
    expect(await replayed!.response.text()).toBe('{"data":[1,2,3]}');
    expect(replayed!.response.headers.get("etag")).toBe(etag);
    expect(replayed!.response.headers.get("cache-control")).toBe("private, max-age=42");
    expect(replayed!.response.headers.get("x-request-id")).toBe("r2");

    const conditional = await replayAnswer(request(url, { "if-none-match": etag }), {});
    expect(conditional!.response.status).toBe(304);
    expect(await conditional!.response.text()).toBe("");

    version = "pass:2";
    expect(await replayAnswer(request(url), {})).toBeNull();
  });

  it("leaves to the route what it cannot replay exactly", async () => {
    const identity: AnswerVersion = { version: "pass:1", maxAgeS: 5, shared: true, current: async () => identity };
    const url = "http://h/api/x?limit=5";
    await answered(url, { data: [] }, identity);
    expect(await replayAnswer(request(url, { accept: "text/csv" }), {})).toBeNull();
    expect(await replayAnswer(request("http://h/api/x?limit=6"), {})).toBeNull();
    expect(await replayAnswer(new Request(url, { method: "HEAD" }) as Request & { nextUrl: URL }, {})).toBeNull();
    clearAnswerCache(); // the bytes were evicted
    expect(await replayAnswer(request(url), {})).toBeNull();
    const failing: AnswerVersion = { ...identity, current: () => Promise.reject(new Error("database down")) };
    await answered(url, { data: [] }, failing);
    expect(await replayAnswer(request(url), {})).toBeNull();
  });
});
