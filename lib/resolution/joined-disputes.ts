// /api/oracle/disputes with each dispute joined to its market (docs/resolution.md). The oracle index's stored answer
// is the list; the join and the market figures are computed once per stored answer (the join cache, keyed by the
// answer's build time) and shared by every request until the indexer stores a newer one, so a request never fans
// out to the upstream on its own.
import type { DisputesBody } from "@/lib/oracle/bodies";
import { chainAnswer, getOracleDisputes } from "@/lib/oracle/service";
import { withMarkets } from "./markets-for-disputes";
import { joinCache } from "./join-cache";

/** Figures (series, holders) are read for this many newest joined disputes; older ones keep their market only. */
const DISPUTES_WITH_FIGURES = 100;

type Joined = Awaited<ReturnType<typeof withMarkets<DisputesBody["data"][number]>>>;
/** The current stored answer's join, and the previous one's while requests that read it finish. */
const joins = joinCache<Joined>("disputes", 4);

export async function loadJoinedDisputes() {
  const { cached, body } = await getOracleDisputes();
  const joined = await joins.load(String(cached.builtAt), () => withMarkets(body.data, { figuresFor: DISPUTES_WITH_FIGURES }));
  return { cached, body, joined };
}

/** The list's body (for the dashboard's first paint) and its cache state. */
export async function disputesWithMarkets() {
  const { cached, body, joined } = await loadJoinedDisputes();
  return {
    cached,
    body: { data: joined.disputes, meta: { ...body.meta, joined_to_market: joined.joined, market_figures_degraded: joined.degraded } },
  };
}

export async function getDisputesWithMarkets() {
  return chainAnswer(await disputesWithMarkets());
}
