import { describe, expect, it } from "vitest";
import { TimeoutError, withTimeout } from "./timeout";

describe("withTimeout", () => {
  it("passes a settled value or error through", async () => {
    await expect(withTimeout(Promise.resolve(7), 1_000)).resolves.toBe(7);
    await expect(withTimeout(Promise.reject(new Error("boom")), 1_000)).rejects.toThrow("boom");
  });

  it("rejects with a TimeoutError, or the caller's own error, when the promise is late", async () => {
    const never = new Promise<never>(() => undefined);
    await expect(withTimeout(never, 5, "store did not answer")).rejects.toSatisfy(
      (e: unknown) => e instanceof TimeoutError && e.message === "store did not answer",
    );
    await expect(withTimeout(never, 5, () => new RangeError("late"))).rejects.toBeInstanceOf(RangeError);
  });
});
