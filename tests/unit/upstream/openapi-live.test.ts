// The four -live endpoints are registered in the OpenAPI document with their parameters, bounds and response schemas.
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/api/openapi";

const doc = buildOpenApiDocument() as any;

const cases: [string, string, Record<string, { minimum?: number; maximum?: number; default?: unknown; enum?: string[] }>][] = [
  ["/api/predmkt/markets/{id}/holders-live", "LiveHolderGroup", { limit: { minimum: 1, maximum: 100, default: 20 } }],
  [
    "/api/predmkt/markets/{id}/activity-live",
    "LiveTrade",
    { holders_limit: { minimum: 1, maximum: 100, default: 10 }, trades_limit: { minimum: 1, maximum: 500, default: 50 } },
  ],
  [
    "/api/predmkt/events/{slug}/activity-live",
    "LiveTrade",
    { side: { enum: ["BUY", "SELL"] }, min_usd: { minimum: 0, default: 0 }, limit: { minimum: 1, maximum: 500, default: 100 } },
  ],
  [
    "/api/predmkt/events/{slug}/history-live",
    "LivePriceSeries",
    { interval: { enum: ["1h", "6h", "1d", "1w", "1m", "max"], default: "1d" }, markets: { minimum: 1, maximum: 20, default: 5 } },
  ],
];

describe("OpenAPI document: -live endpoints", () => {
  it.each(cases)("%s is documented with its parameters and response schema", (path, component, params) => {
    const op = doc.paths[path]?.get;
    expect(op, path).toBeDefined();
    expect(op.tags).toEqual(["Live"]);
    const schemaText = JSON.stringify(op.responses[200].content["application/json"].schema);
    expect(schemaText).toContain(`#/components/schemas/${component}`);
    expect(schemaText).toContain("#/components/schemas/LiveMeta");
    for (const status of ["400", "401", "404", "429", "502", "504"]) expect(op.responses[status], `${path} ${status}`).toBeDefined();
    for (const [name, expected] of Object.entries(params)) {
      const param = op.parameters.find((p: { name: string }) => p.name === name);
      expect(param, name).toBeDefined();
      expect(param.in).toBe("query");
      expect(param.schema).toMatchObject(expected);
    }
    expect(doc.components.schemas[component]).toBeDefined();
  });

  it("documents meta.source, meta.cache and meta.age_s of live bodies", () => {
    const meta = doc.components.schemas.LiveMeta;
    expect(meta.properties.source.const).toBe("live");
    expect(meta.properties.cache.enum).toEqual(["hit", "miss", "stale"]);
    expect(meta.required).toEqual(expect.arrayContaining(["source", "as_of", "cache", "age_s"]));
  });
});
