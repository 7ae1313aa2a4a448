// Finding 4: when the in-process limiter passed its entry cap it forgot everything, so a flood of forged addresses gave
// every limited client a fresh allowance. Eviction is now least-recently-used, and refused clients ("offenders") are
// kept apart so that only newer offenders can push them out.
import { describe, expect, it } from "vitest";
import { MemorySlidingWindow } from "@/lib/auth/ratelimit";

const T0 = 1_800_000_000_000; // start of a window, so the weighted previous window plays no part

describe("in-process limiter under memory pressure", () => {
  it("a flood of 60,000 addresses does not reset a limited client", () => {
    const limiter = new MemorySlidingWindow(60_000, 50_000);
    for (let i = 0; i < 5; i++) expect(limiter.limit("ip:victim-abuser", 5, T0).success).toBe(true);
    expect(limiter.limit("ip:victim-abuser", 5, T0).success).toBe(false);
    for (let i = 0; i < 60_000; i++) limiter.limit(`ip:flood-${i}`, 5, T0 + 1);
    expect(limiter.size.entries).toBeLessThanOrEqual(50_000);
    expect(limiter.limit("ip:victim-abuser", 5, T0 + 2).success).toBe(false);
  });

  it("evicts the least recently used entries, not everything", () => {
    const limiter = new MemorySlidingWindow(60_000, 3);
    limiter.limit("a", 10, T0);
    limiter.limit("b", 10, T0);
    limiter.limit("c", 10, T0);
    limiter.limit("a", 10, T0); // a is now the most recent
    limiter.limit("d", 10, T0); // evicts b
    expect(limiter.size.entries).toBe(3);
    expect(limiter.limit("a", 10, T0).remaining).toBe(7); // kept its count: 3 used
    expect(limiter.limit("b", 10, T0).remaining).toBe(9); // forgotten: fresh
  });

  it("keeps the most recent offenders when there are more than it can hold", () => {
    const limiter = new MemorySlidingWindow(60_000, 100, 2);
    for (const id of ["o1", "o2", "o3"]) {
      limiter.limit(id, 1, T0);
      expect(limiter.limit(id, 1, T0).success).toBe(false);
    }
    expect(limiter.size.offenders).toBe(2);
    expect(limiter.limit("o1", 1, T0).success).toBe(true); // the oldest offender was dropped
    expect(limiter.limit("o3", 1, T0).success).toBe(false);
  });

  it("an offender's window still rolls over: it gets its allowance back once the windows pass", () => {
    const limiter = new MemorySlidingWindow(60_000, 100);
    limiter.limit("x", 1, T0);
    expect(limiter.limit("x", 1, T0).success).toBe(false);
    expect(limiter.limit("x", 1, T0 + 120_000).success).toBe(true);
  });
});
