// Resolution-driven moves are marked with what drove them; probabilities at a moment come from the right series.
import { describe, expect, it } from "vitest";
import { type ResolutionEvent, moveResolutionContext, tradeResolutionContext } from "@/lib/resolution/resolution-context";
import { probabilityAt, seriesBetween } from "@/lib/resolution/probability";

const PROPOSAL_AT = Date.UTC(2026, 4, 27, 14, 2) / 1000;
const minutes = (n: number) => PROPOSAL_AT + n * 60;
const series = [
  { t: minutes(-120), p: 0.6 },
  { t: minutes(-5), p: 0.62 },
  { t: minutes(6), p: 0.9 },
  { t: minutes(21), p: 0.99 },
  { t: minutes(50), p: 0.985 },
];
const proposal: ResolutionEvent = { kind: "proposal", at: PROPOSAL_AT, outcome: "Yes" };

describe("resolution_context", () => {
  it("describes a move that follows a proposal, with the prices before and after it", () => {
    const context = moveResolutionContext({ start: minutes(-60), end: minutes(60) }, series, [proposal]);
    expect(context).toEqual({
      kind: "proposal",
      at: "2026-05-27T14:02:00.000Z",
      outcome: "Yes",
      price_before: 0.62,
      price_after: 0.99,
      minutes_after: 21,
      text: "proposal for Yes at 2026-05-27 14:02 UTC; price moved from 0.62 to 0.99 within 21 minutes after it",
    });
  });

  it("leaves a move alone when no resolution step is near it", () => {
    expect(moveResolutionContext({ start: minutes(-600), end: minutes(-100) }, series, [proposal])).toBeNull();
    expect(moveResolutionContext({ start: minutes(-60), end: minutes(60) }, series, [])).toBeNull();
    // A proposal shortly after the move's window ended did not cause it.
    expect(moveResolutionContext({ start: minutes(-90), end: minutes(-1) }, series, [proposal])).toBeNull();
  });

  it("uses the latest step and says so when there is no price after it yet", () => {
    const dispute: ResolutionEvent = { kind: "dispute", at: minutes(55), outcome: null };
    const context = moveResolutionContext({ start: minutes(-60), end: minutes(58) }, series, [proposal, dispute]);
    expect(context?.kind).toBe("dispute");
    expect(context?.text).toBe("dispute at 2026-05-27 14:57 UTC, within this move's window");
    expect(context?.price_after).toBeNull();
  });

  it("marks a trade placed within the reaction window after a proposal", () => {
    expect(tradeResolutionContext(minutes(12), [proposal])?.text).toBe(
      "trade 12 minutes after the proposal for Yes at 2026-05-27 14:02 UTC",
    );
    expect(tradeResolutionContext(minutes(45), [proposal])).toBeNull();
    expect(tradeResolutionContext(minutes(-1), [proposal])).toBeNull();
  });
});

describe("probability at a moment", () => {
  const clob = [
    { t: minutes(-3000), p: 0.4 },
    { t: minutes(-200), p: 0.58 },
  ];
  const sampled = series.slice(1);

  it("reads our samples where they reach, the CLOB history before that", () => {
    expect(probabilityAt({ sampled, clob }, minutes(10))).toEqual({ p: 0.9, t: minutes(6), source: "sampled", age_seconds: 240 });
    expect(probabilityAt({ sampled, clob }, minutes(-100))).toEqual({ p: 0.58, t: minutes(-200), source: "clob", age_seconds: 6000 });
    expect(probabilityAt({ sampled: [], clob }, minutes(-4000))).toBeNull();
  });

  it("refuses a point older than the caller accepts", () => {
    expect(probabilityAt({ sampled: [], clob }, minutes(-100), 3600)).toBeNull();
  });

  it("cuts a series to a window, starting with the price in force at its start", () => {
    expect(seriesBetween(series, minutes(0), minutes(21))).toEqual([series[1], series[2], series[3]]);
  });
});
