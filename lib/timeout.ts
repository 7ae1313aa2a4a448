// The one timeout helper: every "give up on this promise after N ms" in lib/ goes through withTimeout (no hand-rolled
// Promise.race), so the timer is always cleared and a timeout is recognisable (TimeoutError) by callers that treat
// it differently from a failure.

/** The rejection of a promise that did not settle in time. */
export class TimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TimeoutError";
  }
}

/**
 * Rejects when `promise` has not settled within `ms`: with a TimeoutError carrying `message`, or with the error
 * `onTimeout` builds (e.g. an API error). The timer never outlives the race.
 */
export function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  onTimeout: string | (() => Error) = `no answer within ${ms} ms`,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(typeof onTimeout === "string" ? new TimeoutError(onTimeout) : onTimeout()), ms);
    void promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
