import { afterEach, describe, expect, it, vi } from "vitest";
import { log } from "@/lib/log";
import { repeatEvery } from "./loop";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("repeatEvery", () => {
  it("runs at once, then every interval after the previous run ended; a throwing run is logged and the loop goes on", async () => {
    vi.useFakeTimers();
    const errors = vi.spyOn(log, "error").mockImplementation(() => undefined);
    let runs = 0;
    const stop = repeatEvery(
      10,
      async () => {
        runs += 1;
        if (runs === 2) throw new Error("database away");
        await Promise.resolve();
      },
      "test loop: run crashed",
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(2);
    expect(errors).toHaveBeenCalledWith("test loop: run crashed", expect.objectContaining({ error: "database away" }));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toBe(3);
    stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(3);
  });

  it("a run in flight when the loop stops finishes, and nothing is scheduled after it", async () => {
    vi.useFakeTimers();
    let release!: () => void;
    let runs = 0;
    const stop = repeatEvery(
      1,
      () => {
        runs += 1;
        return new Promise<void>((resolve) => (release = resolve));
      },
      "test loop: run crashed",
    );
    await vi.advanceTimersByTimeAsync(0);
    stop();
    release();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toBe(1);
  });
});
