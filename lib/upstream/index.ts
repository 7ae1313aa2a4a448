// Public surface of the Polymarket upstream layer. Import from "@/lib/upstream", not from the files behind it.
//
//   gamma.listEventsPage({cursor, limit})   one /events/keyset page of open events (with markets) + next_cursor
//   gamma.iterateEvents(params)             async generator over every page (deduplicated)
//   gamma.getEventBySlug(slug)              event with markets, or null
//   gamma.getMarket(idOrConditionId)        market (open or closed), or null
//   data.listTrades({market|eventId, side, minUsd, limit, offset|cursor})
//   data.getHolders(conditionId, limit)     one group per outcome token
//   data.getPositions(user, {...})
//   data.getOpenInterest(conditionIds)      USDC per market, ≤ 20 ids a request
//   wallets.listActivity(user, {start, end, offset}), getValue, getTraded, getLeaderboard  (lib/upstream/wallets.ts)
//   clob.getPricesHistory(tokenId, {interval|startTs/endTs, fidelity, closed})
//   clob.parseMarketWsMessage(frame)
//
// Every call takes `UpstreamCallOptions` (a deadline); timeout, retries with backoff, the per-host concurrency cap
// and coalescing always apply. Failures throw ApiError `upstream_timeout` (504) or `upstream_unavailable` (502);
// unknown slugs/ids come back as null. `countRequests(map, work)` counts the requests `work` sends, by endpoint.
// List items that cannot be parsed are dropped and reported (dropped.ts).
import * as clob from "./clob";
import * as data from "./data";
import * as gamma from "./gamma";
import * as wallets from "./wallets";

export { clob, data, gamma, wallets };
export { type Cached, type CacheStatus, cachedLoad, clearLocalCache, mayServeStale, STALE_MAX_AGE_S } from "./cache";
export { droppedSinceStart } from "./dropped";
export { countRequests, endpointKey } from "./governor";
export { defaultDeadline } from "./http";
export type * from "./types";
