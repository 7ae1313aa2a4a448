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
/** @typedef {import("node:events").EventEmitter} Emitter */
/** @typedef {Map<string | symbol, number>} ListenerCounts */
/** @typedef {{ response: ServerResponse | null, claimed: boolean, own: { response: ListenerCounts, request: ListenerCounts } }} RequestSlot */

export function createBodyHandOff() {
  /** @type {AsyncLocalStorage<RequestSlot>} */
  const requests = new AsyncLocalStorage();

  /**
   * Runs `handle` (Next's request handler) in the request's slot.
   * @param {ServerResponse} response
   * @param {() => void} handle
   */
  function run(response, handle) {
    // The slot lets go of the response once it closes: a promise Next keeps beyond the request keeps only the slot.
    response.once("close", () => (slot.response = null));
    /** @type {RequestSlot} */
    const slot = { response, claimed: false, own: { response: listenerCounts(response), request: listenerCounts(response.req) } };
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
          release(response, slot.own);
          start(response);
          flattenHeaderText(response);
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
 * How many listeners each event of `emitter` has (those added before Next ran are Node's and this entry's own).
 * @param {Emitter} emitter
 * @returns {ListenerCounts}
 */
function listenerCounts(emitter) {
  return new Map(emitter.eventNames().map((name) => [name, emitter.listenerCount(name)]));
}

/**
 * Once Next has ended its part, what it hung on the request and the response for their lifetime would live as long as
 * the body: its request meta, its `setHeader` patch, the compression wrappers of `write`/`end`/`on`/`writeHead` (an
 * event stream says `no-transform`, so they would never compress it), and the listeners it added to both (`close`,
 * `error`, `end`, ...), which hold the route's whole render context (about 40 KB a stream). Its handler has returned,
 * the app uses no `after()`, and the body's writer listens to the response itself, so they are let go. The listeners
 * added before Next ran stay. Nothing is deleted: a deleted property turns Node's request or response into a
 * dictionary-mode object, several KB a stream more (docs/stream.md "Memory"); an own method goes back to the
 * prototype's and the meta to undefined.
 * @param {ServerResponse} response
 * @param {{ response: ListenerCounts, request: ListenerCounts }} own
 */
function release(response, own) {
  dropListenersAddedSince(response, own.response);
  dropListenersAddedSince(response.req, own.request);
  const record = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (response));
  const prototype = /** @type {Record<string, unknown>} */ (Object.getPrototypeOf(response));
  for (const name of Object.keys(response)) {
    if (typeof record[name] === "function" && typeof prototype[name] === "function" && record[name] !== prototype[name])
      record[name] = prototype[name];
  }
  const request = /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (response.req));
  for (const key of Object.getOwnPropertySymbols(request)) if (key.description === "NextInternalRequestMeta") request[key] = undefined;
}

/**
 * @param {Emitter} emitter
 * @param {ListenerCounts} counts
 */
function dropListenersAddedSince(emitter, counts) {
  for (const name of emitter.eventNames()) {
    for (const listener of emitter.rawListeners(name).slice(counts.get(name) ?? 0)) {
      emitter.removeListener(name, /** @type {(...args: unknown[]) => void} */ (listener));
    }
  }
}

/**
 * Node keeps the response's header text for as long as the response lives, as the rope its header lines were
 * concatenated into (about 90 pieces, 2.8 KB a stream); read as a number once, V8 stores it flat (one string of its
 * length). Its value does not change.
 * @param {ServerResponse} response
 */
function flattenHeaderText(response) {
  const header = /** @type {{ _header?: unknown }} */ (/** @type {unknown} */ (response))._header;
  if (typeof header === "string") Number(header);
}
