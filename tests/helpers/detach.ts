/**
 * Adapts an async callback to an API that ignores the callback's result (Node's `http.createServer`, event
 * emitters): the promise is deliberately not awaited by the caller, and a rejection still surfaces as an
 * unhandled rejection rather than vanishing.
 */
export function detach<A extends unknown[]>(callback: (...args: A) => Promise<unknown>): (...args: A) => void {
  return (...args) => void callback(...args);
}
