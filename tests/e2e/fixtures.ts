// Shared fixtures: every test's browser traffic is recorded and checked — keyed API calls carry a JWT `token`, and
// nothing the browser sends or receives as a document contains an API key. Screenshots land in test-results/screenshots.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { test as base, expect, type Page } from "@playwright/test";
import { SCREENSHOT_DIR, waitForSampledData } from "./stack";

/** A real key: the prefix followed by its random body (the docs page may mention the bare prefix in prose). */
export const API_KEY_PATTERN = /pmk_[0-9A-Za-z]{32,}/;
const JWT_PATTERN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export interface Traffic {
  apiCalls: URL[];
  tokenFetches: number;
  leaks: string[];
}

export const test = base.extend<{ traffic: Traffic }>({
  traffic: [
    async ({ page }, use) => {
      const traffic: Traffic = { apiCalls: [], tokenFetches: 0, leaks: [] };
      page.on("request", (request) => {
        const url = new URL(request.url());
        const headers = request.headers();
        const sent = `${request.url()} ${JSON.stringify(headers)} ${request.postData() ?? ""}`;
        if (API_KEY_PATTERN.test(sent)) traffic.leaks.push(`request ${request.url()}`);
        if (/^\/api\/(predmkt|oracle)\//.test(url.pathname)) traffic.apiCalls.push(url);
        if (url.pathname === "/api/dashboard/token") traffic.tokenFetches++;
      });
      page.on("response", async (response) => {
        const type = response.headers()["content-type"] ?? "";
        if (!/html|javascript|json|text\/x-component/.test(type)) return;
        const body = await response.text().catch(() => "");
        if (API_KEY_PATTERN.test(body)) traffic.leaks.push(`response ${response.url()}`);
      });
      await waitForSampledData();
      await use(traffic);
      expect(traffic.leaks, "no API key in the browser's traffic").toEqual([]);
      for (const call of traffic.apiCalls) {
        expect(call.searchParams.get("api_key"), `${call.pathname} must not carry an API key`).toBeNull();
        expect(call.searchParams.get("token") ?? "", `${call.pathname} carries a JWT`).toMatch(JWT_PATTERN);
      }
    },
    { auto: true },
  ],
});

export { expect };

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Desktop screenshot, then the same page at a phone's width (and back). */
export async function screenshots(page: Page, name: string): Promise<void> {
  await screenshot(page, `${name}-desktop`);
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  // Nothing may stick out sideways at phone width: wide tables scroll inside their own box.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name} fits a phone's width`).toBeLessThanOrEqual(1);
  await screenshot(page, `${name}-phone`);
  if (size) await page.setViewportSize(size);
}

/** The page's source as served and as rendered must not contain a key either. */
export async function expectNoKeyInSource(page: Page): Promise<void> {
  const served = await (await page.request.get(page.url())).text();
  expect(served).not.toMatch(API_KEY_PATTERN);
  expect(await page.content()).not.toMatch(API_KEY_PATTERN);
}

/** Navigates and waits until React has hydrated, so clicks and selections reach their handlers. */
export async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

export function usdValue(text: string): number {
  const m = /\$([\d.,]+)([KMB])?/.exec(text.replace(/\s/g, ""));
  if (!m) return Number.NaN;
  const n = Number(m[1].replace(/,/g, ""));
  return n * (m[2] === "K" ? 1e3 : m[2] === "M" ? 1e6 : m[2] === "B" ? 1e9 : 1);
}
