// The handlers of the per-pass aggregates' endpoints (their routes are `withApi(contract, handler)` over these), and
// the answers built right after each pass (prerender.ts): the parameter sets the dashboard sends (lib/queries/views.ts)
// and the defaults of a plain API call, so the first reader after a pass is replayed by the gateway like every later one.
import { errorFields, log } from "@/lib/log";
import { getStats, listCategories } from "@/lib/predmkt/events";
import { movers } from "@/lib/predmkt/movers";
import { perPassAnswer } from "@/lib/predmkt/pass-clock";
import { abnormalTrades } from "@/lib/predmkt/trades";
import { listWhales } from "@/lib/predmkt/whales";
import { MOVER_WINDOWS } from "@/lib/predmkt/windows";
import { ABNORMAL_LIMIT, MOVERS_LIMIT, WHALES_LIMIT } from "@/lib/queries/views";
import type { EndpointContract } from "./contract";
import { abnormalEndpoint, categoriesEndpoint, moversEndpoint, statsEndpoint, whalesEndpoint } from "./endpoints/predmkt-sampled";
import { prerender } from "./prerender";
import type { ApiHandler } from "./with-api";

export const statsAnswer: ApiHandler<typeof statsEndpoint> = () => perPassAnswer(getStats);
export const categoriesAnswer: ApiHandler<typeof categoriesEndpoint> = () => perPassAnswer(listCategories);
export const moversAnswer: ApiHandler<typeof moversEndpoint> = ({ query }) =>
  perPassAnswer(() => movers(query.window, query.limit, query.exclude_resolution === "true"));
export const abnormalAnswer: ApiHandler<typeof abnormalEndpoint> = ({ query }) => perPassAnswer(() => abnormalTrades(query.limit));
export const whalesAnswer: ApiHandler<typeof whalesEndpoint> = ({ query }) => perPassAnswer(() => listWhales(query));

interface Defaults<C extends EndpointContract> {
  contract: C;
  handler: ApiHandler<C>;
  /** Request texts as clients send them: the replay matches the text, so `?limit=50&window=7d` is another entry. */
  requests: string[];
}
const defaults = <C extends EndpointContract>(contract: C, handler: ApiHandler<C>, requests: string[]): Defaults<C> => ({
  contract,
  handler,
  requests,
});

/** The answers built after every pass: about 25, each a slice of an aggregate the after-pass work already holds. */
export const DEFAULT_ANSWERS = [
  defaults(statsEndpoint, statsAnswer, ["/api/predmkt/stats"]),
  defaults(categoriesEndpoint, categoriesAnswer, ["/api/predmkt/categories"]),
  defaults(moversEndpoint, moversAnswer, [
    "/api/predmkt/movers",
    // The dashboard sends the window and its limit, in that order (components/lists/movers.tsx); a plain call the window.
    ...MOVER_WINDOWS.flatMap((w) => [`/api/predmkt/movers?window=${w}&limit=${MOVERS_LIMIT}`, `/api/predmkt/movers?window=${w}`]),
  ]),
  defaults(abnormalEndpoint, abnormalAnswer, ["/api/predmkt/abnormal", `/api/predmkt/abnormal?limit=${ABNORMAL_LIMIT}`]),
  defaults(whalesEndpoint, whalesAnswer, ["/api/predmkt/whales", `/api/predmkt/whales?limit=${WHALES_LIMIT}`]),
];

/** After a pass: builds every default answer (one after another, like the aggregates); a failure is logged and counted. */
export async function prerenderDefaultAnswers(): Promise<{ prerendered: number; failed: number }> {
  let prerendered = 0;
  let failed = 0;
  for (const { contract, handler, requests } of DEFAULT_ANSWERS as Defaults<EndpointContract>[]) {
    for (const text of requests) {
      try {
        if (await prerender(contract, handler, text)) prerendered += 1;
      } catch (error) {
        failed += 1;
        log.warn("prerendering a default answer failed", { request: text, ...errorFields(error) });
      }
    }
  }
  return { prerendered, failed };
}
