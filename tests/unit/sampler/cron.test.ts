// The cron route: its secret check (constant-time, 401 problem+json) and its answer.
import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const SECRET = `cron-test-${randomUUID()}`;
// The env module reads process.env once, at first import: configure before importing the route.
process.env.CRON_SECRET = SECRET;
process.env.POLYMARKET_GAMMA_URL = "http://127.0.0.1:9";
process.env.POLYMARKET_DATA_URL = "http://127.0.0.1:9";
process.env.POLYMARKET_CLOB_URL = "http://127.0.0.1:9";
process.env.UPSTREAM_MAX_RETRIES = "0";

type Route = typeof import("@/app/api/cron/sample/route");
let GET: Route["GET"];
let closeDb: () => Promise<void>;

beforeAll(async () => {
  ({ GET } = await import("@/app/api/cron/sample/route"));
  ({ closeDb } = await import("@/lib/db/client"));
});
afterAll(() => closeDb());

async function cron(authorization?: string) {
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  const response = await GET(new NextRequest("http://localhost/api/cron/sample", { headers }), { params: Promise.resolve({}) });
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    www: response.headers.get("www-authenticate"),
    body: await response.json(),
  };
}

describe("GET /api/cron/sample", () => {
  it("refuses a request without the secret", async () => {
    const res = await cron();
    expect(res.status).toBe(401);
    expect(res.type).toBe("application/problem+json");
    expect(res.www).toMatch(/^Bearer/);
    expect(res.body.code).toBe("missing_credentials");
  });

  it.each([`Bearer ${SECRET}x`, `Bearer ${SECRET.slice(0, -1)}`, "Bearer ", `Basic ${SECRET}`, SECRET])(
    "refuses %j",
    async (authorization) => {
      const res = await cron(authorization);
      expect(res.status).toBe(401);
      expect(res.type).toBe("application/problem+json");
      expect(["missing_credentials", "invalid_token"]).toContain(res.body.code);
    },
  );

  it("runs a pass with the right secret and answers its summary (a failed upstream is a failed pass, not a 500)", async () => {
    const res = await cron(`Bearer ${SECRET}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "failed", counts: { events: 0, trades: 0 } });
    expect(res.body.data.error).toBeTruthy();
    // The one attempt at the listing (retries are off here) was sent, and the summary says so.
    expect(res.body.data.upstream_requests).toEqual({ "gamma /events/keyset": 1 });
    expect(Date.parse(res.body.data.started_at)).toBeLessThanOrEqual(Date.parse(res.body.data.finished_at));
  });
});
