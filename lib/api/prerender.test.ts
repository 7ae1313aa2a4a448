// An answer built after a pass (prerender) is the route's answer: the gateway replays, for the very request texts
// it was built for, the bytes and the ETag withApi would serve, built once; other texts and other versions go on to
// the route, and an answer the gateway may not replay is not remembered.
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type AnswerVersion, cachedAnswer, clearAnswerCache } from "./cached-answer";
import { defineEndpoint } from "./contract";
import { prerender } from "./prerender";
import { clearReplay, replayAnswer } from "./replay";
import { enumParam, intParam } from "./schemas";
import { type ApiHandler, withApi } from "./with-api";

const endpoint = defineEndpoint({
  method: "GET",
  path: "/api/x",
  summary: "x",
  tags: [],
  access: "public",
  query: z.object({ window: enumParam(["1h", "7d"], { default: "1h" }), limit: intParam({ min: 1, max: 500, default: 20 }) }),
  response: z.object({ data: z.array(z.number()), meta: z.object({ window: z.string() }) }),
});

let version = "pass:1";
let builds = 0;
const identity = (): AnswerVersion => ({ version, maxAgeS: 30, shared: true, current: async () => identity() });
const handler: ApiHandler<typeof endpoint> = async ({ query }) =>
  cachedAnswer(identity(), () => {
    builds += 1;
    return { data: Array.from({ length: query.limit }, (_, i) => i), meta: { window: query.window } };
  });
const GET = withApi(endpoint, handler);

const request = (path: string, headers: Record<string, string> = {}) => new NextRequest(`http://localhost${path}`, { headers });
const route = (path: string) => GET(request(path), { params: Promise.resolve({}) });

afterEach(() => {
  clearReplay();
  clearAnswerCache();
  version = "pass:1";
  builds = 0;
});

describe("prerendered answers", () => {
  it("are replayed by the gateway with the route's bytes and ETag, built once", async () => {
    expect(await prerender(endpoint, handler, "/api/x?window=7d")).toBe(true);
    expect(builds).toBe(1);

    const replayed = await replayAnswer(request("/api/x?window=7d&token=t"), { "X-Request-Id": "r1" });
    expect(replayed?.response.status).toBe(200);
    expect(replayed?.route).toBe("/api/x");
    const fromRoute = await route("/api/x?window=7d");
    expect(fromRoute.status).toBe(200);
    expect(builds).toBe(1); // the route found the prerendered bytes
    const bytes = await replayed!.response.text();
    expect(bytes).toBe(await fromRoute.text());
    expect(JSON.parse(bytes)).toEqual({ data: Array.from({ length: 20 }, (_, i) => i), meta: { window: "7d" } });
    expect(replayed!.response.headers.get("etag")).toBe(fromRoute.headers.get("etag"));
    expect(replayed!.response.headers.get("cache-control")).toBe("private, max-age=30");
  });

  it("name the answer by its validated parameters: texts with the same defaults share bytes, not replay entries", async () => {
    await prerender(endpoint, handler, "/api/x");
    await prerender(endpoint, handler, "/api/x?window=1h&limit=20");
    expect(builds).toBe(1);
    expect((await replayAnswer(request("/api/x"), {}))?.response.status).toBe(200);
    expect((await replayAnswer(request("/api/x?window=1h&limit=20"), {}))?.response.status).toBe(200);
    // Only the texts that were prerendered: the same answer asked in another order takes the route.
    expect(await replayAnswer(request("/api/x?limit=20&window=1h"), {})).toBeNull();
  });

  it("stop being replayed when the pass moves on", async () => {
    await prerender(endpoint, handler, "/api/x?window=7d");
    version = "pass:2";
    expect(await replayAnswer(request("/api/x?window=7d"), {})).toBeNull();
    await prerender(endpoint, handler, "/api/x?window=7d");
    expect(builds).toBe(2);
    expect((await replayAnswer(request("/api/x?window=7d"), {}))?.response.status).toBe(200);
  });

  it("leave out answers the gateway may not replay, and refuse what the route would refuse", async () => {
    const perCaller: ApiHandler<typeof endpoint> = async () =>
      cachedAnswer({ version, maxAgeS: 30 }, () => ({ data: [], meta: { window: "1h" } }));
    expect(await prerender(endpoint, perCaller, "/api/x?window=1h")).toBe(false);
    expect(await replayAnswer(request("/api/x?window=1h"), {})).toBeNull();
    const plain: ApiHandler<typeof endpoint> = async () => ({ data: [], meta: { window: "1h" } });
    expect(await prerender(endpoint, plain, "/api/x")).toBe(false);
    await expect(prerender(endpoint, handler, "/api/x?window=2d")).rejects.toThrow(/window/);
    await expect(prerender(endpoint, handler, "/api/y")).rejects.toThrow(/cannot prerender/);
    expect(builds).toBe(0);
  });
});
