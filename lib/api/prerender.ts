// Answers built before anyone asks. After a sampler pass the gateway's replay entries name the previous pass, so the
// first reader of an answer took the route (Next's route hop, the handler, the aggregate sliced and encoded: the
// first-after-pass figure, bench/README.md "Real scale") while every later reader was replayed. Right after the
// pass (lib/server/jobs.ts) the answers most readers ask for are built here through the route's own handler and
// withApi's naming (servedAnswer): the bytes go to the answer cache and the request text to the gateway's replay,
// so the first reader is answered like the second. Nothing here is a second copy of an endpoint.
import { NextRequest } from "next/server";
import { CachedAnswer, prepareAnswer } from "./cached-answer";
import type { EndpointContract } from "./contract";
import { strictQuery } from "./strict-query";
import { type ApiHandler, parseOrThrow, rememberServed, servedAnswer } from "./with-api";

// Never fetched: a URL needs an origin, and the replay key is the path and query alone (replay.ts).
const ORIGIN = "http://prerender.invalid";

/**
 * Builds the answer `requestText` (path and query as a client sends them, credentials left out) would get and lets the
 * gateway replay it. False when the handler's answer is not one the gateway may replay (not cached, or per caller).
 * Only GET endpoints without path parameters: their default answers are the ones every dashboard asks for.
 */
export async function prerender<C extends EndpointContract>(contract: C, handler: ApiHandler<C>, requestText: string): Promise<boolean> {
  const url = new URL(requestText, ORIGIN);
  if (contract.method !== "GET" || contract.params || url.pathname !== contract.path) {
    throw new Error(`cannot prerender ${requestText} as ${contract.method} ${contract.path}`);
  }
  const rawQuery = strictQuery(url, contract);
  const query = contract.query ? parseOrThrow(contract.query, rawQuery, "query") : {};
  // What withApi would hand this handler for a caller the gateway let through (the answer is the same for every
  // caller, or it is not remembered below).
  const context = {
    request: new NextRequest(url),
    requestId: "prerender",
    client: null,
    query,
    params: {},
    body: undefined,
    headers: new Headers(),
  };
  const result = await handler(context as unknown as Parameters<ApiHandler<C>>[0]);
  if (!(result instanceof CachedAnswer)) return false;
  const served = servedAnswer(contract, {}, query, rawQuery, result);
  if (!served.replayable) return false;
  rememberServed(url, contract, served, await prepareAnswer(served.key, served.answer));
  return true;
}
