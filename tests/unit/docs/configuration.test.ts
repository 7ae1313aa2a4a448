// docs/configuration.md documents exactly the variables lib/env.ts reads: a variable added to the env module without
// a line in the docs, or a documented one that is gone, fails here.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../../..");

/** The keys of the schema lib/env.ts validates process.env with (UPPER_CASE properties of its object literals). */
function envModuleVariables(): Set<string> {
  const source = readFileSync(path.join(ROOT, "lib/env.ts"), "utf8");
  return new Set([...source.matchAll(/^\s{2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]));
}

/**
 * The names in the first column of the tables under "## Environment variables"; `A_B_C` / `_D` / `_E_F` is shorthand
 * for A_B_C, A_B_D and A_E_F (the suffix replaces as many trailing segments as it has).
 */
function documentedVariables(): Set<string> {
  const doc = readFileSync(path.join(ROOT, "docs/configuration.md"), "utf8");
  const section = doc.split(/^## /m).find((s) => s.startsWith("Environment variables")) ?? "";
  const names = new Set<string>();
  for (const line of section.split("\n")) {
    if (!line.startsWith("| `")) continue;
    const tokens = [...line.split("|")[1].matchAll(/`([A-Z_][A-Z0-9_]*)`/g)].map((m) => m[1]);
    const [first] = tokens;
    for (const token of tokens) {
      if (!token.startsWith("_")) {
        names.add(token);
        continue;
      }
      const segments = token.split("_").length - 1;
      names.add(first.split("_").slice(0, -segments).join("_") + token);
    }
  }
  return names;
}

describe("docs/configuration.md", () => {
  const inCode = envModuleVariables();
  const documented = documentedVariables();

  it("reads a plausible set of variables from both sides", () => {
    expect(inCode.size).toBeGreaterThan(50);
    expect(documented.has("DATABASE_URL")).toBe(true);
  });

  it("documents every variable lib/env.ts reads", () => {
    expect([...inCode].filter((name) => !documented.has(name)).sort()).toEqual([]);
  });

  it("documents no variable lib/env.ts does not read", () => {
    expect([...documented].filter((name) => !inCode.has(name)).sort()).toEqual([]);
  });
});
