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

/**
 * A revocation reaching a server that caches key lookups for `cacheTtlS` (KEY_CACHE_TTL_S): repeats `request` until it
 * is answered 401, failing if that takes longer than the TTL and 2 s. Returns that answer unread.
 */
export async function untilRefused(request: () => Promise<Response>, cacheTtlS = 1): Promise<Response> {
  const { response } = await pollUntil(
    async () => {
      const response = await request();
      if (response.status !== 401) await response.body?.cancel();
      return { status: response.status, response };
    },
    (answer) => answer.status === 401,
    cacheTtlS * 1000 + 2000,
    // Every 200 ms: a key on a 20-a-minute limit must not run out before its revocation shows.
    200,
    `a 401 within KEY_CACHE_TTL_S=${cacheTtlS} s of the revocation`,
  );
  return response;
}
