// The OpenAPI document must be readable by the tools users point at it: `redocly lint` (its recommended rules) finds
// no error, and the only warning left is the licence's missing url/identifier (the package grants no licence, so
// there is none to link). A self-referencing schema, an operation without a 4xx or a tag without a description
// fails here before it fails a user's SDK generator.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/api/openapi";

const run = promisify(execFile);
const doc = buildOpenApiDocument() as {
  components: { schemas: Record<string, unknown> };
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
};
const dir = mkdtempSync(path.join(tmpdir(), "openapi-lint-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

describe("OpenAPI document", () => {
  it("defines Problem as a schema, not as a reference to itself", () => {
    expect(doc.components.schemas.Problem).toMatchObject({ type: "object", required: expect.arrayContaining(["code", "request_id"]) });
  });

  it("documents a 4xx answer for every operation", () => {
    for (const [route, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(
          Object.keys(operation.responses).filter((status) => status.startsWith("4")),
          `${method} ${route}`,
        ).not.toEqual([]);
      }
    }
  });

  it("passes `redocly lint` with no error and no warning but the licence's url", async () => {
    const file = path.join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(doc));
    const redocly = path.resolve("node_modules/.bin/redocly");
    // `lint` exits non-zero when it finds an error; the JSON report on stdout says which, so it is read either way.
    const { stdout } = await run(redocly, ["lint", file, "--format=json"], {
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
    const report = JSON.parse(stdout) as LintReport;
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(report.totals.errors, problems.join("\n")).toBe(0);
    expect(problems).toEqual([expect.stringMatching(/^warn info-license-strict at #\/info\/license:/)]);
  }, 60_000);
});
