// Waiting for a condition in a test (the one way: no fixed sleeps where a condition can be awaited): probe every
// `everyMs` until `done` holds, failing at the deadline with what was awaited and the last value seen.
export async function pollUntil<T>(
  probe: () => Promise<T> | T,
  done: (value: T) => boolean,
  timeoutMs: number,
  everyMs = 200,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
