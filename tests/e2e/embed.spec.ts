// The widget is meant for other sites: it must render inside an iframe on a page of another origin.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { E2E_URL, topEvent } from "./stack";
import { expect, screenshot, test } from "./fixtures";

let partner: Server;
let partnerUrl = "";
let slug = "";

test.beforeAll(async () => {
  slug = (await topEvent()).slug;
  partner = createServer((_, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html><head><title>Partner site</title></head>
<body style="font-family: sans-serif; background: #f4f4f4; padding: 24px">
<h1>A partner's article</h1>
<p>Our readers follow this market:</p>
<iframe src="${E2E_URL}/embed/events/${slug}" title="Predmkt widget" width="360" height="300" style="border:0"></iframe>
</body></html>`);
  });
  // "localhost" on its own port: another origin than the app's 127.0.0.1.
  await new Promise<void>((resolve) => partner.listen(0, "127.0.0.1", resolve));
  partnerUrl = `http://localhost:${(partner.address() as AddressInfo).port}/`;
});

test.afterAll(async () => {
  await new Promise((resolve) => partner.close(resolve));
});

test("the widget renders probabilities and a sparkline inside another origin's iframe", async ({ page }) => {
  await page.goto(partnerUrl);
  const frame = page.frameLocator("iframe");
  await expect(frame.getByTestId("widget")).toBeVisible();
  const rows = frame.getByTestId("widget-rows").locator("li");
  await expect(rows.first()).toBeVisible();
  await expect(rows.first()).toContainText("%");
  await expect(frame.getByTestId("sparkline").locator(".recharts-line-curve")).toBeVisible();
  const widgetFrame = page.frames().find((f) => f.url().startsWith(E2E_URL))!;
  expect(new URL(widgetFrame.url()).origin).not.toBe(new URL(page.url()).origin);
  // It keeps itself fresh through the API with a token, from inside the frame.
  const refresh = await page.waitForRequest((r) => r.url().startsWith(`${E2E_URL}/api/predmkt/events/${slug}?token=`), { timeout: 30_000 });
  expect(refresh.frame()).toBe(widgetFrame);
  await screenshot(page, "embed-in-partner-page");
});
