// Where the e2e demo stack runs and how tests talk to it outside the browser: the dashboard's public token route
// (the same credentials a visitor's browser gets), and the cron route to force a sampler pass.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pollUntil } from "../helpers/poll";

export const E2E_PORT = Number(process.env.E2E_PORT || 3100);
export const E2E_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_DATA_DIR = path.resolve(__dirname, "../../.data/e2e");
export const SCREENSHOT_DIR = path.resolve(__dirname, "../../test-results/screenshots");

function secrets(): { JWT_SECRET: string; CRON_SECRET: string } {
  return JSON.parse(readFileSync(path.join(E2E_DATA_DIR, "secrets.json"), "utf8"));
}

export const jwtSecret = () => secrets().JWT_SECRET;

let cached: { token: string; until: number } | null = null;

/** A dashboard token, as a browser would get it. */
export async function dashboardToken(): Promise<string> {
  if (cached && cached.until > Date.now()) return cached.token;
  const response = await fetch(`${E2E_URL}/api/dashboard/token`);
  if (!response.ok) throw new Error(`token route answered ${response.status}`);
  const body = (await response.json()) as { token: string; expires_in: number };
  cached = { token: body.token, until: Date.now() + (body.expires_in - 60) * 1000 };
  return body.token;
}

export async function api<T = { data: unknown; meta: Record<string, unknown> }>(pathAndQuery: string): Promise<T> {
  const url = new URL(pathAndQuery, E2E_URL);
  url.searchParams.set("token", await dashboardToken());
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** Runs one sampler pass now (the loop runs every 15 s too; a pass already running makes this one "skipped"). */
/**
 * Forces a sampler pass. `skipped` (the server's own 15 s loop holds the lease) and `failed` (an upstream hiccup the
 * pass reports in its body) are answers, not errors: the caller polls for the data it needs. Anything but a 200 is a
 * broken cron route and fails the test.
 */
export async function samplePass(): Promise<"ok" | "failed" | "skipped"> {
  const response = await fetch(`${E2E_URL}/api/cron/sample`, { headers: { authorization: `Bearer ${secrets().CRON_SECRET}` } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`the cron route answered ${response.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { data: { status: "ok" | "failed" | "skipped" } }).data.status;
}

let sampled: Promise<void> | null = null;

/** Waits until the sampler has filled events, trades and prices; forces passes if the loop has not got there yet. */
export function waitForSampledData(timeoutMs = 120_000): Promise<void> {
  sampled ??= (async () => {
    let lastForced = Date.now();
    const filled = async () => {
      if (Date.now() - lastForced > 20_000) {
        lastForced = Date.now();
        await samplePass();
      }
      const [events, trades] = await Promise.all([
        api<{ data: unknown[] }>("/api/predmkt/events?limit=1").catch(() => ({ data: [] })),
        api<{ data: unknown[] }>("/api/predmkt/trades?limit=1").catch(() => ({ data: [] })),
      ]);
      return { events: events.data.length, trades: trades.data.length };
    };
    await pollUntil(filled, (n) => n.events > 0 && n.trades > 0, timeoutMs, 1_000, "the sampler's events and trades");
  })();
  return sampled;
}

/** The busiest open event, with its markets, for tests that need a real slug. */
export async function topEvent(): Promise<{ slug: string; title: string; markets: { id: string; question: string; closed: boolean }[] }> {
  const list = await api<{ data: { slug: string }[] }>("/api/predmkt/events?limit=5&order=volume");
  for (const e of list.data) {
    const detail = await api<{ data: { slug: string; title: string; markets: { id: string; question: string; closed: boolean }[] } }>(
      `/api/predmkt/events/${e.slug}`,
    );
    if (detail.data.markets.filter((m) => !m.closed).length >= 2) return detail.data;
  }
  const first = await api<{ data: { slug: string; title: string; markets: { id: string; question: string; closed: boolean }[] } }>(
    `/api/predmkt/events/${list.data[0].slug}`,
  );
  return first.data;
}
