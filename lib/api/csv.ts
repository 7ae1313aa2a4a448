// CSV output for list endpoints (`Accept: text/csv` or `?format=csv`): one row per item of `data`, the same columns
// as the JSON items in the contract's order (RFC 4180 quoting; null is an empty cell; a nested array or object is its
// JSON text). Rows are streamed in chunks so a large page never sits in memory twice. Text cells that a spreadsheet
// would run as a formula are neutralised (csvCell).
import { z } from "zod";
import type { EndpointContract } from "./contract";
import { invalidParameter } from "./errors";

const CHUNK_ROWS = 500;
const encoder = new TextEncoder();

/** The item schema of a `{data: [...], meta}` response, or null when the endpoint is not a list. */
function itemSchema(contract: EndpointContract): z.ZodObject | null {
  const response = contract.response;
  if (!(response instanceof z.ZodObject)) return null;
  const data: unknown = (response.shape as Record<string, unknown>).data;
  if (!(data instanceof z.ZodArray)) return null;
  const element = data.element;
  return element instanceof z.ZodObject ? element : null;
}

export function isListEndpoint(contract: EndpointContract): boolean {
  return itemSchema(contract) !== null;
}

/**
 * Whether this request wants CSV. `?format=` must be `json` or `csv` (and `csv` only on a list endpoint) — a bad
 * value is a 400 naming the parameter; `Accept: text/csv` is a preference, honoured on list endpoints only.
 */
export function wantsCsv(request: { headers: Headers; nextUrl: URL }, contract: EndpointContract): boolean {
  const format = request.nextUrl.searchParams.get("format");
  const list = itemSchema(contract) !== null;
  if (format !== null) {
    if (format !== "csv" && format !== "json") throw invalidParameter("format", "must be json or csv");
    if (format === "csv" && !list) throw invalidParameter("format", "csv is available on list endpoints only");
    return format === "csv";
  }
  return list && /(^|,)\s*text\/csv\s*(;|,|$)/i.test(request.headers.get("accept") ?? "");
}

/**
 * What a spreadsheet takes for the start of a formula (OWASP "CSV Injection"): `=`, `+`, `-`, `@`, and tab or carriage
 * return, which some applications strip before looking again. Market titles, questions and decoded ancillary text are
 * written by third parties, so such a cell gets a leading `'`, which spreadsheets read as "this is text".
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  // Numbers and booleans print as in the JSON body (a negative number is a number, not a formula); objects and
  // arrays as their JSON text.
  let text = typeof value === "string" ? value : JSON.stringify(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV body of a list response, streamed; columns from the contract's item schema. */
export function csvResponse(contract: EndpointContract, result: { data: Record<string, unknown>[] }, headers: Headers): Response {
  const columns = Object.keys(itemSchema(contract)!.shape);
  const rows = result.data;
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(columns.map(csvCell).join(",") + "\r\n"));
    },
    pull(controller) {
      if (index >= rows.length) return controller.close();
      const end = Math.min(rows.length, index + CHUNK_ROWS);
      let text = "";
      for (; index < end; index++) text += columns.map((c) => csvCell(rows[index][c])).join(",") + "\r\n";
      controller.enqueue(encoder.encode(text));
    },
  });
  headers.set("Content-Type", "text/csv; charset=utf-8; header=present");
  const name = contract.path
    .replace(/^\/api\//, "")
    .replace(/[{}]/g, "")
    .replace(/\//g, "-");
  headers.set("Content-Disposition", `inline; filename="${name}.csv"`);
  return new Response(body, { status: 200, headers });
}
