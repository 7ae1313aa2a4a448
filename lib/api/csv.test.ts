// CSV cells that a spreadsheet would run as a formula are neutralised, on every list endpoint that answers CSV.
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { csvCell, csvResponse, isListEndpoint } from "./csv";
import { allEndpoints } from "./endpoints";

const HOSTILE = ['=HYPERLINK("http://x","y")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\t=1", "\r=1"];
const FORMULA_START = /^[=+\-@\t\r]/;

describe("csvCell", () => {
  it("prefixes text starting with = + - @ tab or CR with a quote, and leaves numbers and plain text alone", () => {
    for (const text of HOSTILE) expect(csvCell(text).replace(/^"/, "")).toMatch(/^'/);
    expect(csvCell("=1,2")).toBe(`"'=1,2"`);
    expect(csvCell(-3.5)).toBe("-3.5");
    expect(csvCell("Will it rain?")).toBe("Will it rain?");
    expect(csvCell({ a: "=1" })).toBe(`"{""a"":""=1""}"`);
  });
});

const lists = allEndpoints.filter(isListEndpoint);

describe("every CSV list endpoint", () => {
  it("has list endpoints to check", () => {
    expect(lists.length).toBeGreaterThanOrEqual(10);
  });

  it.each(lists.map((c) => [`${c.method} ${c.path}`, c] as const))("%s neutralises every text cell", async (_, contract) => {
    const response = contract.response as unknown as { shape: { data: { element: { shape: Record<string, unknown> } } } };
    const columns = Object.keys(response.shape.data.element.shape);
    // One row per hostile value, that value in every column.
    const data = HOSTILE.map((value) => Object.fromEntries(columns.map((c) => [c, value])));
    const csv = await csvResponse(contract, { data }, new Headers()).text();
    const rows: string[][] = parse(csv, { relax_column_count: false });
    expect(rows[0]).toEqual(columns);
    expect(rows).toHaveLength(HOSTILE.length + 1);
    for (const row of rows.slice(1)) for (const cell of row) expect(cell).not.toMatch(FORMULA_START);
  });
});
