// Number and time formatting shared by the dashboard's server and client components. Pure functions, no locale
// surprises: always en-US so server-rendered and client-rendered text match (no hydration mismatch).

const LOCALE = "en-US";

const usdWhole = new Intl.NumberFormat(LOCALE, { style: "currency", currency: "USD", maximumFractionDigits: 0 });
const usdCents = new Intl.NumberFormat(LOCALE, { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });
const integer = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });

// Compact notation by hand: Node's and browsers' ICU builds disagree on it ("$11.0M" vs "$11M"), which would make
// server-rendered text differ from the hydrated text.
function compactNumber(value: number): string {
  const abs = Math.abs(value);
  const [divisor, suffix] =
    abs >= 1e12 ? [1e12, "T"] : abs >= 1e9 ? [1e9, "B"] : abs >= 1e6 ? [1e6, "M"] : abs >= 1e3 ? [1e3, "K"] : [1, ""];
  let digits = (abs / divisor).toFixed(1);
  if (digits.endsWith(".0")) digits = digits.slice(0, -2);
  return `${value < 0 ? "-" : ""}${digits}${suffix}`;
}

const isNumber = (v: number | null | undefined): v is number => typeof v === "number" && Number.isFinite(v);

/** $1.2M for large figures, $12,345 for mid-size ones, $12.34 below $1,000. */
export function formatUsd(value: number | null | undefined): string {
  if (!isNumber(value)) return "–";
  const abs = Math.abs(value);
  if (abs >= 1_000_000) return `${value < 0 ? "-" : ""}$${compactNumber(abs)}`;
  if (abs >= 1_000) return usdWhole.format(value);
  return usdCents.format(value);
}

/** A probability in [0, 1] as a percentage: 0.4567 → "45.7%"; very small or large values keep a decimal. */
export function formatProbability(value: number | null | undefined): string {
  if (!isNumber(value)) return "–";
  const pct = value * 100;
  if (pct > 0 && pct < 0.1) return "<0.1%";
  if (pct < 100 && pct > 99.9) return ">99.9%";
  return `${pct.toFixed(1)}%`;
}

/** A change in probability points as a signed figure: 0.052 → "+5.2 pts", -0.004 → "−0.4 pts". */
export function formatPoints(change: number | null | undefined): string {
  if (!isNumber(change)) return "–";
  const pts = change * 100;
  const rounded = Math.abs(pts) < 0.05 ? 0 : pts;
  const sign = rounded > 0 ? "+" : rounded < 0 ? "−" : "±";
  return `${sign}${Math.abs(rounded).toFixed(1)} pts`;
}

/** Direction of a change for colouring: "up", "down" or "flat". */
export function changeDirection(change: number | null | undefined): "up" | "down" | "flat" {
  if (!isNumber(change) || Math.abs(change) < 0.0005) return "flat";
  return change > 0 ? "up" : "down";
}

export function formatInteger(value: number | null | undefined): string {
  return isNumber(value) ? integer.format(value) : "–";
}

export function formatCompact(value: number | null | undefined): string {
  return isNumber(value) ? compactNumber(value) : "–";
}

/** A share price in [0, 1] as cents, the way prediction markets quote it: 0.634 → "63.4¢". */
export function formatPrice(value: number | null | undefined): string {
  if (!isNumber(value)) return "–";
  return `${(value * 100).toFixed(1)}¢`;
}

/** UMA token amounts arrive as exact decimal strings; show them rounded with separators ("3,899,999.75" → "3.9M"). */
export function formatTokens(decimal: string | null | undefined): string {
  if (decimal === null || decimal === undefined || decimal === "") return "–";
  const n = Number(decimal);
  if (!Number.isFinite(n)) return decimal;
  return n >= 10_000 ? compactNumber(n) : integer.format(n);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["week", 7 * 86_400],
  ["day", 86_400],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];
const relative = new Intl.RelativeTimeFormat(LOCALE, { numeric: "auto", style: "short" });

/** "3 min. ago", "in 2 days"; `now` is injectable so tests and server renders are deterministic. */
export function formatRelativeTime(iso: string | Date | null | undefined, now: number = Date.now()): string {
  if (!iso) return "–";
  const t = typeof iso === "string" ? Date.parse(iso) : iso.getTime();
  if (!Number.isFinite(t)) return "–";
  const diffS = Math.round((t - now) / 1000);
  if (Math.abs(diffS) < 5) return "just now";
  for (const [unit, seconds] of UNITS) {
    if (Math.abs(diffS) >= seconds || unit === "second") return relative.format(Math.trunc(diffS / seconds), unit);
  }
  return "–";
}

const dateTime = new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const dateOnly = new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeZone: "UTC" });

/** Absolute UTC time, for tooltips and `title` attributes next to relative times. */
export function formatDateTime(iso: string | Date | null | undefined): string {
  if (!iso) return "–";
  const d = typeof iso === "string" ? new Date(iso) : iso;
  return Number.isFinite(d.getTime()) ? `${dateTime.format(d)} UTC` : "–";
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "–";
  const d = new Date(iso);
  return Number.isFinite(d.getTime()) ? dateOnly.format(d) : "–";
}

/** 0x1234…abcd */
export function shortAddress(address: string | null | undefined): string {
  if (!address) return "–";
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** A trader's public name: pseudonym when known, else the shortened wallet. */
export function traderName(pseudonym: string | null | undefined, wallet: string): string {
  return pseudonym && pseudonym.trim() ? pseudonym : shortAddress(wallet);
}
