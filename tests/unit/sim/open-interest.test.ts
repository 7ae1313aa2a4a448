// The simulator's open interest, v1 `/oi` and v2 `/v2/oi`: shapes, aliases, limits and errors as documented, and the
// same figure from both (every outcome's held shares at its price).
import { describe, expect, it } from "vitest";
import { getJson, type Row, simulatorForTests } from "./helpers";

const sim = simulatorForTests({ seed: 11 });
const busiest = () => sim().summary().samples.busiest_markets[0] as { condition_id?: string; id: string };
const conditionOf = () => {
  const id = busiest().id;
  return sim().world.markets.find((m) => m.id === id)!.conditionId;
};

describe("open interest", () => {
  it("v1 and v2 give one figure per market, at least the top holders' value, and nothing for an unknown market", async () => {
    const condition = conditionOf();
    const unknown = `0x${"ab".repeat(32)}`;
    const v1 = await getJson<Row[]>(`${sim().dataUrl}/oi?market=${condition},${unknown}`);
    expect(v1.status).toBe(200);
    expect(v1.body).toEqual([{ market: condition, value: expect.any(Number) }]);
    const v2 = await getJson<{ data: Row[] }>(`${sim().dataUrl}/v2/oi?condition=${condition.toUpperCase().replace("0X", "0x")},${unknown}`);
    expect(v2.status).toBe(200);
    expect(v2.headers.get("x-trace-id")).toBeTruthy();
    expect(v2.body).toEqual({ data: [{ condition_id: condition, value: v1.body[0].value }] });
    expect(v1.body[0].value as number).toBeGreaterThan(0);

    // The 20 largest holders per side, at the same prices, are a part of it.
    const holders = await getJson<{ holders: { amount: number; outcomeIndex: number }[] }[]>(
      `${sim().dataUrl}/holders?market=${condition}`,
    );
    const market = await getJson<Row[]>(`${sim().gammaUrl}/markets?condition_ids=${condition}`);
    const prices = (JSON.parse(String(market.body[0].outcomePrices)) as string[]).map(Number);
    const top = holders.body.flatMap((g) => g.holders).reduce((sum, h) => sum + h.amount * prices[h.outcomeIndex], 0);
    expect(v1.body[0].value as number).toBeGreaterThanOrEqual(top - 0.01);
  });

  it("accepts the v2 aliases, answers the global row without ids, and refuses what the docs say it refuses", async () => {
    const condition = conditionOf();
    for (const alias of ["condition_id", "conditionId"]) {
      const res = await getJson<{ data: Row[] }>(`${sim().dataUrl}/v2/oi?${alias}=${condition}`);
      expect(res.body.data.map((r) => r.condition_id)).toEqual([condition]);
    }
    const global = await getJson<{ data: Row[] }>(`${sim().dataUrl}/v2/oi`);
    expect(global.body.data).toEqual([{ condition_id: "GLOBAL", value: expect.any(Number) }]);
    // (The world trades on between the two calls: the figure itself moves.)
    expect((await getJson<Row[]>(`${sim().dataUrl}/oi`)).body).toEqual([{ market: "GLOBAL", value: expect.any(Number) }]);
    expect(global.body.data[0].value as number).toBeGreaterThan(0);

    const many = Array.from({ length: 21 }, (_, i) => `0x${i.toString(16).padStart(64, "0")}`).join(",");
    const tooMany = await getJson<Row>(`${sim().dataUrl}/v2/oi?condition=${many}`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ code: "invalid_request", parameter: "condition" });
    const malformed = await getJson<Row>(`${sim().dataUrl}/v2/oi?condition=0x1234`);
    expect(malformed.status).toBe(400);
    expect(String(malformed.body.error)).toContain("0x1234");
    expect((await getJson<Row>(`${sim().dataUrl}/oi?market=nope`)).status).toBe(400);
  });
});
