// /api/oracle/disputes with each dispute joined to its market (docs/resolution.md). The oracle index's stored answer
// is the list; the join and the market figures are computed once per stored answer (cachedLoad keyed by the
// answer's build time) and shared by every request until the indexer stores a newer one, so a request never fans
// out to the upstream on its own.
import { chainAnswer, getOracleDisputes } from "@/lib/oracle/service";
import { cachedLoad } from "@/lib/upstream";
import { withMarkets } from "./disputes";

/** Figures (series, holders) are read for this many newest joined disputes; older ones keep their market only. */
export const DISPUTES_WITH_FIGURES = 100;
/** How long one computed join is reused at most (the indexer stores a newer answer every pass anyway). */
const JOIN_TTL_S = 60;

export async function loadJoinedDisputes() {
  const { cached, body } = await getOracleDisputes();
  const { value } = await cachedLoad(`resolution:disputes:${cached.builtAt}`, { ttlS: JOIN_TTL_S }, () =>
    withMarkets(body.data, { figuresFor: DISPUTES_WITH_FIGURES }),
  );
  return { cached, body, joined: value };
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
