// The in-process answer cache's bounds: at most ANSWER_CACHE_MAX_MB of bytes (1 MB here), least recently used out
// first, an answer larger than the whole budget served but never kept, and one build for concurrent requests.
import { vi } from "vitest";

vi.hoisted(() => {
  process.env.ANSWER_CACHE_MAX_MB = "1";
});

import { describe, expect, it } from "vitest";
import { answerBytes, answerCacheStats, type CachedAnswer, cachedAnswer, clearAnswerCache, recallAnswerBytes } from "./cached-answer";

const MB = 1024 * 1024;
/** A body whose JSON is `size` bytes (a string: two quotes around size - 2 characters). */
const body = (size: number) => "x".repeat(size - 2);

/** An answer of `size` bytes that counts its builds. */
function counted(size: number): { builds: number; value: CachedAnswer } {
  const answer: { builds: number; value: CachedAnswer } = {
    builds: 0,
    value: cachedAnswer({ version: "v1", maxAgeS: 60 }, () => {
      answer.builds++;
      return body(size);
    }),
  };
  return answer;
}

describe("the answer cache", () => {
  it("keeps at most ANSWER_CACHE_MAX_MB of bytes, the least recently read out first", async () => {
    clearAnswerCache();
    const [a, b, c] = [counted(400_000), counted(400_000), counted(400_000)];
    await answerBytes("a", a.value);
    await answerBytes("b", b.value);
    await answerBytes("a", a.value); // a hit: "b" is now the least recently read
    await answerBytes("c", c.value); // 1.2 MB > 1 MB: "b" goes
    expect(answerCacheStats()).toEqual({ entries: 2, bytes: 800_000, max_bytes: MB });
    expect(recallAnswerBytes("b")).toBeUndefined();
    expect(recallAnswerBytes("a")?.length).toBe(400_000);
    await answerBytes("b", b.value);
    expect([a.builds, b.builds, c.builds]).toEqual([1, 2, 1]);
  });

  it("serves an answer larger than the whole budget without keeping it", async () => {
    clearAnswerCache();
    const huge = counted(MB + 1);
    expect((await answerBytes("huge", huge.value)).length).toBe(MB + 1);
    expect(answerCacheStats().entries).toBe(0);
    await answerBytes("huge", huge.value);
    expect(huge.builds).toBe(2);
  });

  it("builds once for concurrent requests of one answer", async () => {
    clearAnswerCache();
    const one = counted(1_000);
    const all = await Promise.all(Array.from({ length: 20 }, () => answerBytes("one", one.value)));
    expect(one.builds).toBe(1);
    expect(new Set(all).size).toBe(1);
  });
});
