// Which answers may be written to the shared store (SECURITY.md "Shared stores"). Every distinct request text is a
// distinct answer; shared across instances, a client sending unique parameters (limit=101, 102, …) would write one
// answer per request into the store that also held the budgets. Only canonical parameter sets are shared: numbers on
// a documented grid, no free text. Everything else is still cached, in the process that built it.

/** The values of numeric parameters that are shared across instances (the dashboard's and the defaults' values). */
export const CANONICAL_GRID: Readonly<Record<string, readonly number[]>> = {
  limit: [5, 10, 20, 25, 50, 100, 200, 500],
  trades_limit: [10, 20, 50, 100],
  holders_limit: [5, 10, 20, 50],
  min_usd: [0, 10, 100, 1_000, 10_000, 100_000],
};
/** `offset` is canonical on multiples of this, up to CANONICAL_MAX_OFFSET (the events pager's pages). */
const CANONICAL_OFFSET_STEP = 20;
const CANONICAL_MAX_OFFSET = 1_000;
/** Free text: every value is its own answer. */
const FREE_TEXT = new Set(["q"]);

/** Whether a request's query (as sent, already validated by its contract) names an answer worth sharing. */
export function isCanonicalQuery(query: Readonly<Record<string, string>>): boolean {
  for (const [name, value] of Object.entries(query)) {
    if (FREE_TEXT.has(name)) return false;
    const grid = CANONICAL_GRID[name];
    if (grid) {
      if (!grid.includes(Number(value))) return false;
    } else if (name === "offset") {
      const offset = Number(value);
      if (!(offset % CANONICAL_OFFSET_STEP === 0 && offset <= CANONICAL_MAX_OFFSET)) return false;
    } else if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(value) && !/^\d+$/.test(value)) {
      // A number outside the grid (a fraction, a sign, an exponent) is unbounded; plain digits are ids.
      return false;
    }
  }
  return true;
}
