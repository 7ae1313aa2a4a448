import { afterEach, describe, expect, it } from "vitest";
import { recordUsage, statusClass, unflushedUsage } from "./usage-meter";

const meter = () =>
  (globalThis as { __predmktUsageMeter?: { timer: NodeJS.Timeout | null; pending: Map<string, number> } }).__predmktUsageMeter!;

afterEach(() => {
  // No flush to a database from a unit test: stop the timer the first count started and drop the counts.
  if (meter().timer) clearInterval(meter().timer!);
  meter().timer = null;
  meter().pending.clear();
});

describe("usage meter", () => {
  it("classes statuses as 2xx, 4xx, 429 and 5xx (a 304 is a success)", () => {
    expect([200, 201, 304, 400, 401, 404, 429, 500, 503].map(statusClass)).toEqual([
      "2xx",
      "2xx",
      "2xx",
      "4xx",
      "4xx",
      "4xx",
      "429",
      "5xx",
      "5xx",
    ]);
  });

  it("adds counts per key, minute, operation and status class in memory", async () => {
    const key = "00000000-0000-4000-8000-000000000001";
    const other = "00000000-0000-4000-8000-000000000002";
    const minute = Date.UTC(2026, 10, 25, 1, 0);
    for (let i = 0; i < 3; i++) recordUsage(key, "GET /api/predmkt/events/{slug}", 200, minute + i * 1000);
    recordUsage(key, "GET /api/predmkt/events/{slug}", 429, minute + 5000);
    recordUsage(key, "GET /api/predmkt/events/{slug}", 200, minute + 60_000);
    recordUsage(other, "GET /api/predmkt/stats", 200, minute);
    const rows = (await unflushedUsage(key)).sort((a, b) => a.minute - b.minute || a.statusClass.localeCompare(b.statusClass));
    expect(rows).toEqual([
      { keyId: key, minute, statusClass: "2xx", operation: "GET /api/predmkt/events/{slug}", count: 3 },
      { keyId: key, minute, statusClass: "429", operation: "GET /api/predmkt/events/{slug}", count: 1 },
      { keyId: key, minute: minute + 60_000, statusClass: "2xx", operation: "GET /api/predmkt/events/{slug}", count: 1 },
    ]);
  });
});
