// What a dashboard token is good for (SECURITY.md, "Dashboard tokens"). GET /api/dashboard/token needs no key, so its
// tokens must buy what the dashboard's pages do and nothing the paid tiers sell:
// - the address that minted it, only (the `addr` claim, compared with the caller's budget key on every use);
// - the operations the pages and widgets call, with the page sizes and offsets they use: no CSV, no usage report, no
//   token exchange, `limit` ≤ DASHBOARD_MAX_LIMIT and `offset` ≤ DASHBOARD_MAX_OFFSET;
// - a per-address slice well below the starter tier, an IPv6 client budgeted per DASHBOARD_IPV6_PREFIX network (one
//   site holds 65,536 /64s in its /48: a /64 budget would hand it 65,536 slices);
// - together, only the share of the dashboard key's allowance that is not reserved for page renders.
// Pure functions: the gateway (proxy.ts) applies them with the operation it resolved.
import ipaddr from "ipaddr.js";

/** The largest page the dashboard asks for (the trade tape, whales and abnormal lists: 100). */
export const DASHBOARD_MAX_LIMIT = 100;
/** The deepest the events pager goes (page 501 of 20: the overview page's own cap). */
export const DASHBOARD_MAX_OFFSET = 10_000;

/** The operations (method-less path templates) the dashboard's pages and embeddable widgets call. */
const DASHBOARD_OPERATIONS: ReadonlySet<string> = new Set([
  "/api/predmkt/stats",
  "/api/predmkt/categories",
  "/api/predmkt/events",
  "/api/predmkt/events/{slug}",
  "/api/predmkt/events/{slug}/changes",
  "/api/predmkt/events/{slug}/activity-live",
  "/api/predmkt/events/{slug}/history-live",
  "/api/predmkt/markets/{id}/holders-live",
  "/api/predmkt/movers",
  "/api/predmkt/abnormal",
  "/api/predmkt/whales",
  "/api/predmkt/trades",
  "/api/predmkt/stream",
  "/api/oracle/summary",
  "/api/oracle/disputes",
  "/api/oracle/disputes/{id}",
  "/api/oracle/rounds",
  "/api/oracle/voters",
  // The wallet page (app/(dashboard)/wallets/[address]) and the leaderboard.
  "/api/predmkt/wallets/{address}",
  "/api/predmkt/wallets/{address}/positions",
  "/api/predmkt/wallets/{address}/activity",
  "/api/predmkt/leaderboard",
]);

/**
 * Why a dashboard token may not make this request, or null when it may. `operationPath` is the contract's path
 * template the request resolved to (lib/api/operations.ts), `/api/{path}` for an unknown path (refused too: a token
 * that 404s costs the shared key as much as one that answers).
 */
export function dashboardScopeRefusal(method: string, operationPath: string, query: URLSearchParams, headers: Headers): string | null {
  if (method !== "GET" && method !== "HEAD") return `A dashboard token cannot ${method}; it reads what the dashboard shows.`;
  if (!DASHBOARD_OPERATIONS.has(operationPath)) {
    return `A dashboard token is not valid for ${operationPath}; use an API key (see /api-access).`;
  }
  const format = query.get("format");
  if (format !== null && format !== "json") return "A dashboard token answers JSON only; CSV needs an API key.";
  if (/(^|,)\s*text\/csv\s*(;|,|$)/i.test(headers.get("accept") ?? "")) {
    return "A dashboard token answers JSON only; CSV needs an API key.";
  }
  for (const [name, max] of [
    ["limit", DASHBOARD_MAX_LIMIT],
    ["offset", DASHBOARD_MAX_OFFSET],
  ] as const) {
    // Only a number past the cap is refused here; a malformed value is the route's 400 naming the parameter.
    for (const value of query.getAll(name)) {
      if (Number(value) > max) return `A dashboard token allows ${name} up to ${max}; larger pages need an API key.`;
    }
  }
  return null;
}

/**
 * The identifier of the dashboard slice a client's budget key falls in: an IPv4 address as it is, an IPv6 budget key
 * (`2001:db8:1:2::/64`) widened to its `/prefixBits` network.
 */
export function dashboardSlice(budgetKey: string, prefixBits: number): string {
  const match = /^(.+)\/64$/.exec(budgetKey);
  if (!match || !ipaddr.IPv6.isValid(match[1])) return budgetKey;
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${match[1]}/${prefixBits}`);
  return `${network.toString()}/${prefixBits}`;
}

/** The dashboard key's per-minute allowance browser tokens may spend together (the rest is kept for page renders). */
export function tokenShare(keyLimit: number, reservePct: number): number {
  return Math.max(1, Math.floor((keyLimit * (100 - reservePct)) / 100));
}
