import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineEndpoint } from "@/lib/api/contract";
import { enumParam, intParam, slugParam } from "@/lib/api/schemas";
import { withApi } from "@/lib/api/with-api";
import { signGatewayHeader, verifyGatewayHeader } from "@/lib/auth/gateway";

const client = { keyId: "0d9f3c1e-0000-4000-8000-000000000001", tier: "pro" as const, via: "api_key" as const };

describe("gateway header", () => {
  it("verifies what the gateway signed", () => {
    const header = signGatewayHeader(client, "req-1");
    expect(verifyGatewayHeader(header, "req-1")).toEqual(client);
  });

  it("rejects forged, altered, replayed-for-another-request and stale headers", () => {
    const header = signGatewayHeader(client, "req-1");
    expect(verifyGatewayHeader(header.replace(".pro.", ".enterprise."), "req-1")).toBeNull();
    expect(verifyGatewayHeader(header.slice(0, -2) + "xx", "req-1")).toBeNull();
    expect(verifyGatewayHeader(header, "req-2")).toBeNull();
    expect(verifyGatewayHeader(signGatewayHeader(client, "req-1", Date.now() - 120_000), "req-1")).toBeNull();
    expect(verifyGatewayHeader("1.x.pro.api_key.c2lnbmF0dXJl", "req-1")).toBeNull();
    expect(verifyGatewayHeader(null, "req-1")).toBeNull();
    expect(verifyGatewayHeader(header, null)).toBeNull();
  });
});

const demoEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/predmkt/demo/{slug}",
  summary: "demo",
  tags: [],
  access: "key",
  params: z.object({ slug: slugParam }),
  query: z.object({ limit: intParam({ min: 1, max: 500, default: 50 }), side: enumParam(["BUY", "SELL"], { caseInsensitive: true }) }),
  response: z.object({ data: z.object({ slug: z.string(), limit: z.number(), side: z.string().nullable() }), meta: z.object({}) }),
});
const GET = withApi(demoEndpoint, async ({ params, query }) => ({
  data: { slug: params.slug, limit: query.limit, side: query.side ?? null },
  meta: {},
}));

function call(path: string, headers: Record<string, string> = {}, slug = "some-event") {
  return GET(new NextRequest(`http://localhost${path}`, { headers }), { params: Promise.resolve({ slug }) });
}

function gated(requestId: string = crypto.randomUUID()) {
  return { "x-request-id": requestId, "x-predmkt-gateway": signGatewayHeader(client, requestId) };
}

describe("withApi", () => {
  it("refuses a request that did not pass the gateway, even with a forged header", async () => {
    for (const headers of [{}, { "x-request-id": "a", "x-predmkt-gateway": "1.k.pro.api_key.forged" }] as Record<string, string>[]) {
      const res = await call("/api/predmkt/demo/some-event", headers);
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect((await res.json()).code).toBe("missing_credentials");
    }
  });

  it("parses defaults and case-insensitive enums", async () => {
    const res = await call("/api/predmkt/demo/some-event?side=buy", gated("6f1c1c2e-1111-4222-8333-444455556666"));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("6f1c1c2e-1111-4222-8333-444455556666");
    expect(await res.json()).toEqual({ data: { slug: "some-event", limit: 50, side: "BUY" }, meta: {} });
  });

  it.each([
    ["?limit=0", "limit"],
    ["?limit=501", "limit"],
    ["?limit=abc", "limit"],
    ["?limit=1.5", "limit"],
    ["?side=HOLD", "side"],
  ])("400 names the parameter for %s", async (query, parameter) => {
    const res = await call(`/api/predmkt/demo/some-event${query}`, gated());
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({
      status: 400,
      code: "invalid_parameter",
      type: expect.any(String),
      title: expect.any(String),
      request_id: expect.any(String),
    });
    expect(body.errors[0].parameter).toBe(parameter);
    expect(body.detail).toContain(parameter);
  });

  it("400 names a bad path segment", async () => {
    const res = await call("/api/predmkt/demo/BAD_SLUG", gated(), "BAD_SLUG");
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].parameter).toBe("slug");
  });

  it.each([
    ["?limit=7&limit=900", "limit", "must be sent once"],
    ["?foo=bar", "foo", "unknown parameter; this endpoint accepts limit, side"],
    ["?side=BUY%00", "side", "must not contain control characters"],
    ["?side=%0A", "side", "must not contain control characters"],
    [`?side=${"B".repeat(513)}`, "side", "must be at most 512 characters"],
    ["?limit=0x1F", "limit", "must be a decimal number"],
    ["?limit=", "limit", "must be a decimal number"],
    ["?limit=1e2", "limit", "must be a decimal number"],
    ["?limit=%2B5", "limit", "must be a decimal number"],
    ["?limit=%205", "limit", "must be a decimal number"],
    ["?format=csv", "format", "csv is available on list endpoints only; this endpoint accepts limit, side"],
  ])("strict parameters: %s is a 400 naming %s", async (query, parameter, detail) => {
    const res = await call(`/api/predmkt/demo/some-event${query}`, gated());
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = await res.json();
    expect(body.errors).toEqual([{ parameter, detail }]);
    expect(body.detail).toContain(`'${parameter}'`);
  });

  it("strict parameters: every offending parameter is listed, an over-long name is reported as the query", async () => {
    const res = await call(`/api/predmkt/demo/some-event?limit=1&limit=2&x=1&${"n".repeat(600)}=1`, gated());
    expect((await res.json()).errors.map((e: { parameter: string }) => e.parameter)).toEqual(["limit", "x", "query"]);
  });

  it("strict parameters: credentials the gateway reads (api_key, token) are accepted and never reach the handler", async () => {
    const res = await call("/api/predmkt/demo/some-event?limit=7&token=abc.def.ghi&api_key=pmk_x", gated());
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ slug: "some-event", limit: 7, side: null });
    expect((await call("/api/predmkt/demo/some-event?token=a&token=b", gated())).status).toBe(400);
  });

  it("strict parameters: a decoded path segment with a control character is a 400 naming it", async () => {
    const res = await call("/api/predmkt/demo/x", gated(), "some\u0000event");
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0]).toEqual({ parameter: "slug", detail: "must not contain control characters" });
  });

  it("an unexpected error is a 500 problem without internals", async () => {
    const boom = withApi(demoEndpoint, async () => {
      throw new Error("SELECT secret FROM internals");
    });
    const res = await boom(new NextRequest("http://localhost/x", { headers: gated() }), { params: Promise.resolve({ slug: "a" }) });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain("SELECT");
    expect(JSON.parse(text).code).toBe("internal_error");
  });

  it("an unreachable database is a 503, not a 500", async () => {
    const down = withApi(demoEndpoint, async () => {
      throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    });
    const res = await down(new NextRequest("http://localhost/x", { headers: gated() }), { params: Promise.resolve({ slug: "a" }) });
    expect(res.status).toBe(503);
    expect((await res.json()).code).toBe("service_unavailable");
  });
});
