// Dashboard tokens are only the dashboard (SECURITY.md "Dashboard tokens"): through the real gateway (proxy.ts) with
// the embedded database, each client a verified TCP peer as scripts/server.mjs reports it.
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { ABNORMAL_LIMIT, EVENTS_PAGE_SIZE, HOLDERS_LIMIT, MOVERS_LIMIT, TAPE_LIMIT, VOTERS_LIMIT, WHALES_LIMIT } from "@/lib/queries/views";
import { proxy } from "@/proxy";
import { inOneWindow } from "@/tests/helpers/rate-window";
import { PEER_HEADER, PEER_PROOF_HEADER } from "./client-address";
import { mintDashboardToken } from "./dashboard";
import { DASHBOARD_MAX_LIMIT, DASHBOARD_MAX_OFFSET, dashboardScopeRefusal, dashboardSlice, tokenShare } from "./dashboard-scope";

const proof = "dashboard-scope-test-proof";
(globalThis as { __predmktPeerProof?: string }).__predmktPeerProof = proof;

function from(peer: string, path: string, headers: Record<string, string> = {}) {
  return proxy(new NextRequest(`http://localhost${path}`, { headers: { [PEER_HEADER]: peer, [PEER_PROOF_HEADER]: proof, ...headers } }));
}

beforeAll(async () => {
  await getDb();
});
afterAll(closeDb);

describe("dashboard token binding", () => {
  it("is served from the address that minted it and refused (401) from another", async () => {
    const { token } = await mintDashboardToken("198.51.100.10");
    expect((await from("198.51.100.10", `/api/predmkt/stats?token=${token}`)).status).toBe(200);
    const elsewhere = await from("198.51.100.11", `/api/predmkt/stats?token=${token}`);
    expect(elsewhere.status).toBe(401);
    expect((await elsewhere.json()).code).toBe("invalid_token");
  });

  it("an IPv6 token is bound to its /64: another /64 of the same /48 is another address", async () => {
    const { token } = await mintDashboardToken("2001:db8:10:1::/64");
    expect((await from("2001:db8:10:1::99", `/api/predmkt/stats?token=${token}`)).status).toBe(200);
    expect((await from("2001:db8:10:2::1", `/api/predmkt/stats?token=${token}`)).status).toBe(401);
  });
});

describe("dashboard token scope", () => {
  it("refuses CSV, the usage report, limit=500 and a deep offset with 403 insufficient_scope", async () => {
    const peer = "198.51.100.20";
    const { token } = await mintDashboardToken(peer);
    const refused = [
      `/api/predmkt/trades?token=${token}&format=csv`,
      `/api/auth/usage?token=${token}`,
      `/api/predmkt/trades?token=${token}&limit=500`,
      `/api/predmkt/events?token=${token}&offset=20000`,
      `/api/predmkt/live?token=${token}`,
      `/api/predmkt/markets/some-market/history?token=${token}`,
    ];
    for (const path of refused) {
      const response = await from(peer, path);
      expect(response.status, path).toBe(403);
      expect((await response.json()).code).toBe("insufficient_scope");
    }
    const csvByAccept = await from(peer, `/api/predmkt/whales?token=${token}`, { accept: "text/csv" });
    expect(csvByAccept.status).toBe(403);
    // What the pages ask for passes the gateway.
    for (const path of [`/api/predmkt/trades?token=${token}&limit=100`, `/api/predmkt/events?token=${token}&limit=20&offset=40`]) {
      expect((await from(peer, path)).status, path).toBe(200);
    }
  });

  it("covers every page size the dashboard asks for", () => {
    const sizes = [ABNORMAL_LIMIT, EVENTS_PAGE_SIZE, HOLDERS_LIMIT, MOVERS_LIMIT, TAPE_LIMIT, VOTERS_LIMIT, WHALES_LIMIT];
    expect(Math.max(...sizes)).toBeLessThanOrEqual(DASHBOARD_MAX_LIMIT);
    // The overview page's pager stops at offset 10,000 (app/(dashboard)/page.tsx).
    expect(Math.floor(10_000 / EVENTS_PAGE_SIZE) * EVENTS_PAGE_SIZE).toBeLessThanOrEqual(DASHBOARD_MAX_OFFSET);
    const none = new Headers();
    expect(dashboardScopeRefusal("GET", "/api/predmkt/stream", new URLSearchParams("topics=trades"), none)).toBeNull();
    expect(dashboardScopeRefusal("POST", "/api/auth/token", new URLSearchParams(), none)).toMatch(/POST/);
    expect(dashboardScopeRefusal("GET", "/api/{path}", new URLSearchParams(), none)).toMatch(/not valid/);
  });
});

describe("dashboard slices", () => {
  it("widens IPv6 budget keys to the configured network and leaves IPv4 alone", () => {
    expect(dashboardSlice("2001:db8:5:6::/64", 48)).toBe("2001:db8:5::/48");
    expect(dashboardSlice("2001:db8:5:6ff::/64", 56)).toBe("2001:db8:5:600::/56");
    expect(dashboardSlice("192.0.2.1", 48)).toBe("192.0.2.1");
    expect(dashboardSlice("unknown", 48)).toBe("unknown");
  });

  it("100 addresses of one /48 share one slice; another /48 keeps its own", async () => {
    await inOneWindow(async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 100; i++) {
        const peer = `2001:db8:48:${(i + 1).toString(16)}::1`;
        const { token } = await mintDashboardToken(`2001:db8:48:${(i + 1).toString(16)}::/64`);
        statuses.push((await from(peer, `/api/predmkt/stats?token=${token}`)).status);
      }
      const served = statuses.filter((s) => s === 200).length;
      expect(served).toBe(env.RATE_LIMIT_DASHBOARD_PER_IP);
      expect(statuses.filter((s) => s === 429)).toHaveLength(100 - served);
      const { token } = await mintDashboardToken("2001:db8:49:1::/64");
      expect((await from("2001:db8:49:1::1", `/api/predmkt/stats?token=${token}`)).status).toBe(200);
    });
  });

  it("keeps the page-render reserve out of the tokens' share", () => {
    expect(tokenShare(6000, 20)).toBe(4800);
    expect(tokenShare(10, 90)).toBe(1);
  });
});
