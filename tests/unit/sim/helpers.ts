import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { startSimulator, type Simulator, type SimulatorOptions } from "@/sim/polymarket";

export const FIXTURES = path.resolve(__dirname, "../../../../shared/fixtures/polymarket");

export function fixture<T = unknown>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name), "utf8")) as T;
}

export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * Keys of `recorded` that `actual` lacks or carries with another JSON type. `optional` keys may be missing;
 * `types` widens the allowed types of a key (e.g. feeType: string | null).
 */
export function shapeMismatches(
  recorded: Record<string, unknown>,
  actual: Record<string, unknown>,
  options: { optional?: string[]; types?: Record<string, string[]> } = {},
): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(recorded)) {
    if (!(key in actual)) {
      if (!options.optional?.includes(key)) problems.push(`missing ${key}`);
      continue;
    }
    const allowed = options.types?.[key] ?? [jsonType(value)];
    if (!allowed.includes(jsonType(actual[key]))) problems.push(`${key}: expected ${allowed.join("|")}, got ${jsonType(actual[key])}`);
  }
  return problems;
}

export async function getJson<T = unknown>(url: string, init?: RequestInit): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as T, headers: res.headers };
}

export type Row = Record<string, unknown>;

/**
 * Starts a simulator before the tests of the file (or describe block) it is called in and closes it after them;
 * the returned function gives the running simulator.
 */
export function simulatorForTests(options: SimulatorOptions): () => Simulator {
  let sim: Simulator | undefined;
  beforeAll(async () => {
    sim = await startSimulator(options);
  });
  afterAll(async () => {
    await sim?.close();
  });
  return () => {
    if (!sim) throw new Error("the simulator is not started yet (call it from a test or a hook)");
    return sim;
  };
}
