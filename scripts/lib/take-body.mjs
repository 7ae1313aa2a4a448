// @ts-check
// The hand-off of a long-lived response body from Next to the app (docs/stream.md "Memory"), used by the production
// entry (scripts/server.mjs). A body the app returns as a web stream is piped by Next, and Next's pipe keeps the
// request's whole graph (its request and work stores, the route's context, two web streams) alive for as long as the
// body runs: about 90 KB a stream. Instead the app may claim the request's body: it returns a bodiless 200, and when
// Next ends that response (its status and headers set) the app gets Node's response and writes and ends the body
// itself.
//
// Only the app's own code can claim, and only for the request it is handling: the response is found through this
// process's own async context, which only this entry enters, never through anything a client sent. Where the app
// does not run under this entry (in-process tests, Vercel) nobody sets the hook and the app returns a web stream.
import { AsyncLocalStorage } from "node:async_hooks";

/** @typedef {import("node:http").ServerResponse} ServerResponse */
/** @typedef {{ response: ServerResponse | null, claimed: boolean, ownCloseListeners: number }} RequestSlot */

export function createBodyHandOff() {
  /** @type {AsyncLocalStorage<RequestSlot>} */
  const requests = new AsyncLocalStorage();

  /**
   * Runs `handle` (Next's request handler) in the request's slot.
   * @param {ServerResponse} response
   * @param {() => void} handle
   */
  function run(response, handle) {
    /** @type {RequestSlot} */
    const slot = { response, claimed: false, ownCloseListeners: 0 };
    // The slot lets go of the response once it closes: a promise Next keeps beyond the request keeps only the slot.
    response.once("close", () => (slot.response = null));
    slot.ownCloseListeners = response.listenerCount("close");
    requests.run(slot, handle);
  }

  /**
   * Claims the current request's body: when Next ends the response with no body and a 200, `start` gets Node's
   * response instead. False outside a request run by `run`, or once the response has started or been claimed.
   * @param {(response: ServerResponse) => void} start
   * @returns {boolean}
   */
  function takeBody(start) {
    const slot = requests.getStore();
    const response = slot?.response;
    if (!slot || !response || slot.claimed || response.headersSent || response.writableEnded) return false;
    slot.claimed = true;
    // Whatever `end` is in place (Next's compression wraps it) is put back on the first call.
    const end = response.end;
    response.end = /** @type {typeof end} */ (
      function (/** @type {unknown[]} */ ...args) {
        response.end = end;
        if (args.length === 0 && response.statusCode === 200 && !response.headersSent) {
          release(response, slot.ownCloseListeners);
          start(response);
          return response;
        }
        return end.apply(response, /** @type {[]} */ (args));
      }
    );
    return true;
  }

  return { run, takeBody };
}

/**
 * Once Next has ended its part, what it hung on the request and the response for their lifetime would live as long as
 * the body: its request meta, its `setHeader` patch and the close listeners that abort the request's signal and end
 * its stores' phase, which between them hold the route's whole context (about 40 KB a stream). Its handler has
 * returned, the app uses no `after()`, and the body's writer listens to the response itself, so they are let go. The
 * close listeners added before Next ran (the first `ownCloseListeners`) stay.
 * @param {ServerResponse} response
 * @param {number} ownCloseListeners
 */
function release(response, ownCloseListeners) {
  for (const listener of response.rawListeners("close").slice(ownCloseListeners)) {
    response.removeListener("close", /** @type {(...args: unknown[]) => void} */ (listener));
  }
  if (Object.hasOwn(response, "setHeader")) delete (/** @type {Partial<ServerResponse>} */ (response).setHeader);
  const request = /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (response.req));
  for (const key of Object.getOwnPropertySymbols(request)) if (key.description === "NextInternalRequestMeta") delete request[key];
}
