// The production SamplerSource: lib/upstream's clients with `fresh: true` (the sampler must not read the short
// metadata cache the live endpoints use).
import { data, gamma } from "@/lib/upstream";
import type { SamplerSource } from "./source";

export const upstreamSource: SamplerSource = {
  eventsPage: (cursor, limit) => gamma.listEventsPage({ cursor, limit }, { fresh: true }),
  tradesPage: async (offset, limit) => (await data.listTrades({ offset, limit, takerOnly: true }, { fresh: true })).trades,
  holders: (conditionId, limit) => data.getHolders(conditionId, limit, { fresh: true }),
  positions: (wallet, conditionId) => data.getPositions(wallet, { market: conditionId, sizeThreshold: 0 }, { fresh: true }),
};
