// A store no one can flush (SECURITY.md "Shared stores"): 10,000 unique parameter sets leave the rate-limit state
// intact (it lives in its own store) and write at most the per-pass byte budget of answers to the shared one. Real
// Redis (127.0.0.1:6379), two databases of its own.
import { vi } from "vitest";

vi.hoisted(() => {
  process.env.REDIS_URL = "redis://127.0.0.1:6379/13";
  process.env.RATE_LIMIT_REDIS_URL = "redis://127.0.0.1:6379/14";
  process.env.ANSWER_KV_BUDGET_MB = "1";
});

import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { consume } from "@/lib/auth/ratelimit";
import { closeKv, getKv, getLimitsKv } from "@/lib/kv/redis";
import { isCanonicalQuery } from "./canonical";
import { answerBytes, cachedAnswer, clearAnswerCache, sharedAnswerBytes } from "./cached-answer";

afterAll(closeKv);

const BODY = { data: Array.from({ length: 20 }, (_, i) => ({ id: i, question: "Will the flood fill the store?", usd: 1234.5 })) };

describe("a unique-parameter flood", () => {
  it("keeps the rate-limit keys and writes at most the byte budget to the shared store", async () => {
    expect(getLimitsKv()).not.toBe(getKv());
    const identifier = `key:flood-${randomUUID()}`;
    for (let i = 0; i < 5; i++) expect((await consume(identifier, 1000)).success).toBe(true);
    const before = await sharedAnswerBytes();
    const version = `pass-${randomUUID()}`;
    let shared = 0;
    for (let i = 0; i < 10_000; i++) {
      // Half off the grid (min_usd=3, 7, 11, …: never shared), half canonical but distinct (one market id each).
      const query: Record<string, string> = i % 2 ? { min_usd: String(2 * i + 1) } : { market_id: String(500_000 + i), limit: "50" };
      const canonical = isCanonicalQuery(query);
      if (canonical) shared++;
      await answerBytes(
        `flood-${version}-${i}`,
        cachedAnswer({ version, maxAgeS: 60, shared: canonical }, () => ({ ...BODY, query })),
      );
    }
    expect(shared).toBe(5_000);
    const written = (await sharedAnswerBytes()) - before;
    console.log(`KV answer bytes after 10,000 unique parameter sets: ${written} (budget ${1024 * 1024})`);
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThanOrEqual(1024 * 1024);
    // The limiter's counts are where they were: its window keys still hold the five requests. Read from the store,
    // not through `remaining`, which weighs the previous window by the time left in it and so depends on how long
    // the flood took (a loaded machine can carry it past a window's edge).
    const limits = getLimitsKv()!.redis;
    const limitKeys = await limits.keys(`predmkt:rl:1000*${identifier}*`);
    expect(limitKeys.length).toBeGreaterThan(0);
    const counts = await Promise.all(limitKeys.map((key) => limits.get<number | string>(key)));
    expect(counts.reduce<number>((sum, count) => sum + Number(count), 0)).toBe(5);
    expect(await consume(identifier, 1000)).toMatchObject({ success: true, store: "redis" });
    clearAnswerCache();
  });

  it("shares only parameter sets on the documented grid", () => {
    expect(isCanonicalQuery({ limit: "100", min_usd: "1000", window: "24h" })).toBe(true);
    expect(isCanonicalQuery({ market_id: "12345", offset: "40" })).toBe(true);
    expect(isCanonicalQuery({ limit: "101" })).toBe(false);
    expect(isCanonicalQuery({ min_usd: "150" })).toBe(false);
    expect(isCanonicalQuery({ offset: "41" })).toBe(false);
    expect(isCanonicalQuery({ q: "election" })).toBe(false);
    expect(isCanonicalQuery({ hours: "1.5" })).toBe(false);
  });
});
