// /api/health is public: one report answers every caller for HEALTH_CACHE_S, and each address has a budget.
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEALTH_PER_ADDRESS_PER_MINUTE } from "@/lib/api/endpoints/system";
import { PEER_HEADER, PEER_PROOF_HEADER } from "@/lib/auth/client-address";
import { closeDb, getDb } from "@/lib/db/client";
import { inOneWindow } from "@/tests/helpers/rate-window";
import { healthReport } from "./health";

const proof = "health-test-proof";
(globalThis as { __predmktPeerProof?: string }).__predmktPeerProof = proof;

beforeAll(async () => {
  await getDb();
});
afterAll(closeDb);

describe("health", () => {
  it("shares one report for the cache period, and builds a fresh one after it", async () => {
    const first = await healthReport(1_000_000, 5_000);
    expect(await healthReport(1_004_000, 5_000)).toBe(first);
    expect(await healthReport(1_005_001, 5_000)).not.toBe(first);
  });

  it("limits each client address", async () => {
    const { GET } = await import("@/app/api/health/route");
    const call = (ip: string) =>
      GET(new NextRequest("http://localhost/api/health", { headers: { [PEER_HEADER]: ip, [PEER_PROOF_HEADER]: proof } }), {
        params: Promise.resolve({}),
      });
    await inOneWindow(async () => {
      for (let i = 0; i < HEALTH_PER_ADDRESS_PER_MINUTE; i++) expect((await call("198.51.100.90")).status).toBe(200);
      const limited = await call("198.51.100.90");
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect((await call("198.51.100.91")).status).toBe(200);
    });
  });
});
