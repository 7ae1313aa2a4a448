// The production SamplerSource: lib/upstream's clients. Each call gets the sampler's own deadline: a pass can afford
// to wait out upstream throttling (Cloudflare delays before it refuses) where a live request cannot.
import { data, gamma } from "@/lib/upstream";
import { DEFAULT_CONFIG } from "./config";
import type { SamplerSource } from "./source";

const deadline = () => ({ deadline: Date.now() + DEFAULT_CONFIG.requestDeadlineMs });

export const upstreamSource: SamplerSource = {
  eventsPage: (cursor, limit) => gamma.listEventsPage({ cursor, limit }, deadline()),
  // The first page is the tape's newest: read past the Data API's per-URL CDN cache (docs/upstream-live.md).
  tapePage: (cursor, limit) =>
    data.listTrades({ version: "v2", cursor, limit, takerOnly: true }, { ...deadline(), fresh: cursor === null }),
  holders: (conditionId, limit) => data.getHolders(conditionId, limit, deadline()),
};
