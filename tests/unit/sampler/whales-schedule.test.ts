// The whale refresh's order while markets it has never read are waiting (a cold start: at bench scale 6,550 markets
// qualify, 22 passes of 300): the biggest markets keep their 10-minute schedule instead of waiting until every
// eligible market has been read once.
import { describe, expect, it } from "vitest";
import { samplerOverSimulator } from "./harness";

const m = samplerOverSimulator({ seed: 6, scale: "small" }, async () => ({ sampler: await import("@/lib/sampler") }));

describe("whale refresh order", () => {
  it("a big market past its interval is refreshed before markets never read", { timeout: 300_000 }, async () => {
    const config = { eventsPageSize: 100, whaleMarketsPerPass: 20, whaleMinVolumeUsd: 10_000 };
    const refreshed = () => m.db.market.findMany({ where: { whalesAt: { not: null } }, select: { id: true, whalesAt: true } });
    expect((await m.sampler.runSamplerPass({ now: m.clock, config })).status).toBe("ok");
    const first = await refreshed();
    expect(first).toHaveLength(20); // the 20 biggest: all among the 100 due every 10 minutes
    // Far more markets qualify than two passes can read, so markets never read are still waiting after the second.
    expect(await m.db.market.count({ where: { open: true, volumeUsd: { gte: 10_000 } } })).toBeGreaterThan(60);
    m.now += 11 * 60_000;
    expect((await m.sampler.runSamplerPass({ now: m.clock, config })).status).toBe("ok");
    const reread = (await refreshed()).filter((r) => first.some((f) => f.id === r.id) && r.whalesAt!.getTime() === m.now);
    expect(reread).toHaveLength(20);
  });
});
