// openapi-typescript reads the OpenAPI document and generates a type for every path and operation in it: a document
// it cannot read (a self-referencing schema, say) fails here before the typed client of the integration suite is built.
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { generateTypes } from "@/scripts/lib/openapi-types";

describe("generated client types", () => {
  it("has a path entry and an operation for every operation of the document", async () => {
    const generated = await generateTypes();
    const document = buildOpenApiDocument();
    const paths = Object.keys(document.paths ?? {});
    expect(paths.length).toBeGreaterThan(20);
    for (const p of paths) expect(generated, p).toContain(`"${p}": {`);
    const operationIds = Object.values(document.paths ?? {}).flatMap((item) =>
      Object.values(item ?? {}).flatMap((op) => (op && typeof op === "object" && "operationId" in op ? [String(op.operationId)] : [])),
    );
    expect(operationIds.length).toBeGreaterThanOrEqual(paths.length);
    for (const id of operationIds) expect(generated, id).toContain(`${id}: {`);
  }, 60_000);
});
