// Every dashboard page renders real rows from the simulator (sampled and live) and the local chains, and its
// controls change what is shown.
import { api, samplePass, topEvent } from "./stack";
import { expect, expectNoKeyInSource, open, screenshots, test, usdValue } from "./fixtures";

type Row = { title: string; slug: string; category: string | null; category_label: string | null };

test("overview: stats, categories and the events table show sampled data", async ({ page }) => {
  const expected = await api<{ data: Row[] }>("/api/predmkt/events?limit=20");
  await open(page, "/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const cards = page.getByTestId("stat-cards");
  await expect(cards.locator("dd").first()).not.toHaveText("–");
  await expect(cards).toContainText("$");
  await expect(page.getByTestId("categories").getByRole("button")).not.toHaveCount(0);
  const rows = page.getByTestId("events-table").locator("tbody tr");
  await expect(rows).toHaveCount(expected.data.length);
  await expect(rows.first().getByRole("link")).toHaveText(expected.data[0].title);
  await expectNoKeyInSource(page);
  await screenshots(page, "overview");
});

test("overview: search, category filter, sort and paging change the rows", async ({ page }) => {
  await open(page, "/");
  const table = page.getByTestId("events-table");
  const firstTitle = table.locator("tbody tr").first().getByRole("link");

  // Sort
  const byLiquidity = await api<{ data: Row[] }>("/api/predmkt/events?order=liquidity&limit=20");
  await page.getByLabel("Sort by").selectOption("liquidity");
  await expect(firstTitle).toHaveText(byLiquidity.data[0].title);
  await expect(page).toHaveURL(/order=liquidity/);
  await page.getByLabel("Sort by").selectOption("volume24hr");

  // Paging
  const page1 = await api<{ data: Row[]; meta: { total: number } }>("/api/predmkt/events?limit=20");
  // The demo world (seed 1) has more open events than one page: the paging is exercised, never skipped.
  expect(page1.meta.total).toBeGreaterThan(20);
  const page2 = await api<{ data: Row[] }>("/api/predmkt/events?limit=20&offset=20");
  await page.getByRole("button", { name: /Next/ }).click();
  await expect(firstTitle).toHaveText(page2.data[0].title);
  await expect(page.getByRole("navigation", { name: "Pages" })).toContainText("Page 2");
  await page.getByRole("button", { name: /Previous/ }).click();
  await expect(firstTitle).toHaveText(page1.data[0].title);

  // Category (via its chip): every row carries that category's label
  const categories = await api<{ data: { slug: string; label: string; event_count: number }[] }>("/api/predmkt/categories");
  const category = categories.data.find((c) => c.event_count < page1.meta.total) ?? categories.data[0];
  await page
    .getByTestId("categories")
    .getByRole("button", { name: new RegExp(`^${category.label}`) })
    .click();
  await expect(page).toHaveURL(new RegExp(`category=${category.slug}`));
  await expect(table.locator("tbody tr .tag").filter({ hasNotText: category.label })).toHaveCount(0);
  await expect(table.locator("tbody tr")).toHaveCount(Math.min(category.event_count, 20));
  await page.getByLabel("Category").selectOption("");

  // Search: a word from a real title narrows the list to titles containing it
  const word = page1.data[0].title
    .split(/\s+/)
    .find((w) => w.length >= 5)!
    .replace(/[^A-Za-z0-9]/g, "");
  const matching = await api<{ data: Row[]; meta: { total: number } }>(`/api/predmkt/events?q=${encodeURIComponent(word)}&limit=20`);
  await page.getByLabel("Search events").fill(word);
  await expect(page).toHaveURL(new RegExp(`q=${word}`));
  await expect(table.locator("tbody tr .row-title").filter({ hasNotText: new RegExp(word, "i") })).toHaveCount(0);
  await expect(table.locator("tbody tr")).toHaveCount(matching.data.length);
  await page.getByLabel("Search events").fill("zzzz-no-such-event-title");
  await expect(page.getByTestId("empty-state")).toContainText("No open events match");
});

test("event page: markets, history chart with interval switch, changes, live trades with filters, holders", async ({ page }) => {
  const event = await topEvent();
  await open(page, `/events/${event.slug}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(event.title);
  const markets = page.getByTestId("markets-table").locator("tbody tr");
  await expect(markets).toHaveCount(event.markets.length);
  await expect(markets.first()).toContainText("%");

  // Chart: one line per top market, each drawn with points
  const chart = page.getByTestId("chart");
  await expect(chart.locator(".recharts-line-curve").first()).toBeVisible();
  expect(await chart.locator(".recharts-line-curve").count()).toBe(Math.min(5, event.markets.filter((m) => !m.closed).length) || 1);
  expect(await chart.locator(".recharts-line-dots circle").count()).toBeGreaterThan(4);
  const dayPath = await chart.locator(".recharts-line-curve").first().getAttribute("d");
  const weekRequest = page.waitForRequest((r) => r.url().includes("/history-live") && r.url().includes("interval=1w"));
  await page.getByTestId("switch-interval").getByRole("radio", { name: "1w" }).click();
  await weekRequest;
  await expect(page.locator('[data-interval="1w"] .recharts-line-curve').first()).toBeVisible();
  await expect.poll(() => page.locator('[data-interval="1w"] .recharts-line-curve').first().getAttribute("d")).not.toBe(dayPath);

  // Changes: window switch asks for the new window
  const changesRequest = page.waitForRequest((r) => r.url().includes("/changes") && r.url().includes("window=1h"));
  await page.getByTestId("switch-changes-window").getByRole("radio", { name: "1h" }).click();
  await changesRequest;
  // The stack's history starts with this run (a fresh data directory, no backfill), so nothing is an hour old yet: the
  // API answers no rows and the page says why instead of showing an empty table.
  const changes = await api<{ data: unknown[] }>(`/api/predmkt/events/${event.slug}/changes?window=1h`);
  expect(changes.data).toEqual([]);
  await expect(page.getByText("No samples old enough to compare over 1h yet.")).toBeVisible();
  await expect(page.getByTestId("changes-table")).toHaveCount(0);

  // Live trades, filtered by side and size
  const feed = page.getByTestId("event-trades").locator("tbody tr");
  await expect(feed.first()).toBeVisible();
  await page.getByTestId("switch-side").getByRole("radio", { name: "Sells" }).click();
  await expect(page.getByTestId("switch-side").getByRole("radio", { name: "Sells" })).toHaveAttribute("aria-checked", "true");
  await expect
    .poll(async () => new Set(await page.getByTestId("event-trades").locator("tbody .badge").allTextContents()))
    .toEqual(new Set(["Sell"]));
  await page.getByTestId("switch-side").getByRole("radio", { name: "Both" }).click();
  await page.getByLabel("Minimum size").selectOption("100");
  await expect
    .poll(async () => {
      const sizes = await page.getByTestId("event-trades").locator("tbody tr td.num:not(.hide-sm)").allTextContents();
      return sizes.length > 0 && sizes.every((s) => usdValue(s) >= 100);
    })
    .toBe(true);

  // Holders of the biggest market
  await expect(page.getByTestId("holders-table").first().locator("tbody tr").first()).toBeVisible();
  await screenshots(page, "event");
});

test("movers: window switch changes the ranking window and rows link to events", async ({ page }) => {
  await open(page, "/movers");
  const request = page.waitForRequest((r) => r.url().includes("/api/predmkt/movers") && r.url().includes("window=1m"));
  await page.getByTestId("switch-movers-window").getByRole("radio", { name: "1m" }).click();
  await request;
  await expect(page.getByRole("heading", { name: "Biggest moves over 1m" })).toBeVisible();
  await expect(page).toHaveURL(/window=1m/);
  // Movers need two samples a window apart: give the 15 s sampler loop time, forcing a pass now and then.
  await expect
    .poll(
      async () => {
        if ((await page.getByTestId("movers-table").count()) === 0) await samplePass();
        return page.getByTestId("movers-table").locator("tbody tr").count();
      },
      { timeout: 100_000, intervals: [5_000] },
    )
    .toBeGreaterThan(0);
  const first = page.getByTestId("movers-table").locator("tbody tr").first();
  await expect(first.locator("td").nth(4)).toHaveText(/pts/);
  await screenshots(page, "movers");
  await first.getByRole("link").click();
  await expect(page).toHaveURL(/\/events\//);
  await expect(page.getByTestId("markets-table")).toBeVisible();
});

test("whales: largest positions, linked to their event", async ({ page }) => {
  const whales = await api<{ data: { question: string }[] }>("/api/predmkt/whales?limit=100");
  expect(whales.data.length).toBeGreaterThan(0);
  await open(page, "/whales");
  const rows = page.getByTestId("whales-table").locator("tbody tr");
  await expect(rows).toHaveCount(whales.data.length);
  await expect(rows.first()).toContainText(whales.data[0].question);
  await screenshots(page, "whales");
  // Each row links its wallet and its market's event; the event link is named by the question.
  await rows.first().getByRole("link", { name: whales.data[0].question }).click();
  await expect(page).toHaveURL(/\/events\/[a-z0-9-]+$/);
  await expect(page.getByTestId("markets-table")).toContainText(whales.data[0].question);
});

test("trades: the tape filters by size, marks abnormal trades and refreshes live without a reload", async ({ page }) => {
  await open(page, "/trades");
  const rows = page.getByTestId("trades-table").locator("tbody tr");
  await expect(rows.first()).toBeVisible();
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

  // Abnormal trades: the simulator's flow includes outsized fills, so the sampler flags some within a few passes. Each
  // is listed with its reason, and exactly the flagged trades that are on screen in the tape carry the mark.
  let abnormal: { data: { id: string; reason: string }[] } = { data: [] };
  await expect
    .poll(
      async () => {
        abnormal = await api<{ data: { id: string; reason: string }[] }>("/api/predmkt/abnormal?limit=100");
        if (abnormal.data.length === 0) await samplePass();
        return abnormal.data.length;
      },
      { timeout: 90_000, intervals: [3_000] },
    )
    .toBeGreaterThan(0);
  await page.reload();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(page.getByTestId("abnormal-table").locator("tbody tr").first()).toBeVisible();
  await expect(page.getByTestId("abnormal-table")).toContainText(abnormal.data[0].reason);
  // A mark is never invented: every marked row of the tape is in the abnormal list (read after the marks, as the list
  // only grows while the stack is younger than its 24 h window).
  const marked = await rows.evaluateAll((trs) =>
    trs.filter((tr) => tr.querySelector('[data-testid="abnormal-reason"]')).map((tr) => tr.getAttribute("data-trade-id")),
  );
  const abnormalNow = await api<{ data: { id: string }[] }>("/api/predmkt/abnormal?limit=100");
  const abnormalIds = new Set(abnormalNow.data.map((a) => a.id));
  expect(marked.filter((id) => id === null || !abnormalIds.has(id))).toEqual([]);
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await screenshots(page, "trades");

  // Live refresh: new trades from later sampler passes appear in the same document
  const before = new Set(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-trade-id"))));
  await expect
    .poll(
      async () => {
        await samplePass();
        const ids = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-trade-id")));
        return ids.some((id) => !before.has(id));
      },
      { timeout: 60_000, intervals: [3_000] },
    )
    .toBe(true);
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

  // Minimum size: the tape holds fills of $1,000 and more (checked through the API), and the filtered page shows only those.
  const large = await api<{ data: unknown[] }>("/api/predmkt/trades?min_usd=1000&limit=1");
  expect(large.data.length).toBe(1);
  await page.getByLabel("Minimum size").selectOption("1000");
  await expect(page).toHaveURL(/min_usd=1000/);
  await expect
    .poll(async () => {
      const sizes = await page.getByTestId("trades-table").locator("tbody tr td.num:not(.hide-sm)").allTextContents();
      return sizes.length > 0 && sizes.every((s) => usdValue(s) >= 1000);
    })
    .toBe(true);
});

test("oracle: summary, disputes with status badges, reveals chart and top stakers from the local chain", async ({ page }) => {
  const disputes = await api<{ data: { title: string | null; status: string }[] }>("/api/oracle/disputes");
  await open(page, "/oracle");
  await expect(page.getByTestId("oracle-summary").locator("dd").first()).not.toHaveText("–");
  const rows = page.getByTestId("disputes-table").locator("tbody tr");
  await expect(rows).toHaveCount(disputes.data.length);
  // The local chains' disputes carry their titles in cleartext ancillary data: one is always titled.
  const firstTitled = disputes.data.find((d) => d.title);
  expect(firstTitled, "a dispute with a title").toBeDefined();
  await expect(page.getByTestId("disputes-table")).toContainText(firstTitled!.title!.slice(0, 40));
  const statuses = await page
    .getByTestId("disputes-table")
    .locator("[data-status]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-status")));
  expect(statuses.sort()).toEqual(disputes.data.map((d) => d.status).sort());
  const chart = page.getByTestId("chart");
  await expect(chart.locator(".recharts-line-curve").first()).toBeVisible();
  expect(await chart.locator(".recharts-line-dots circle").count()).toBeGreaterThan(0);
  await expect(page.getByTestId("voters-table").locator("tbody tr").first()).toBeVisible();
  await screenshots(page, "oracle");
});

test("docs: the API reference lists every operation and 'Try it' calls the API with a token", async ({ page }) => {
  const openapi = (await (await page.request.get("/api/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
  const count = Object.values(openapi.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
  await open(page, "/docs");
  await expect(page.getByTestId("operation")).toHaveCount(count);
  const stats = page.getByTestId("operation").filter({ has: page.locator("code", { hasText: /^\/api\/predmkt\/stats$/ }) });
  await stats.getByText("Try it").click();
  const call = page.waitForRequest((r) => r.url().includes("/api/predmkt/stats?token="));
  await stats.getByRole("button", { name: "Send request" }).click();
  await call;
  await expect(stats.getByTestId("try-result")).toContainText("200");
  await expect(stats.getByTestId("try-result")).toContainText('"active_events"');
  await expectNoKeyInSource(page);
  await screenshots(page, "docs");
});

test("a 429 or an upstream failure shows a calm notice and keeps the rows on screen", async ({ page }) => {
  // The stream is refused too (e.g. the dashboard key's concurrent-stream limit): the tape falls back to polling.
  await page.route("**/api/predmkt/stream?**", (route) =>
    route.fulfill({ status: 429, headers: { "content-type": "application/problem+json", "retry-after": "60" }, body: "{}" }),
  );
  // A controllable clock (it runs at real speed until told otherwise) so the Retry-After window can be crossed without sleeping.
  await page.clock.install();
  await open(page, "/trades");
  await expect(page.getByTestId("stream-status").first()).toHaveAttribute("data-state", "reconnecting");
  const rows = page.getByTestId("trades-table").locator("tbody tr");
  await expect(rows.first()).toBeVisible();
  const shown = await rows.count();
  let refused = 0;
  await page.route("**/api/predmkt/trades?**", (route) => {
    refused++;
    return route.fulfill({
      status: 429,
      headers: { "content-type": "application/problem+json", "retry-after": "40" },
      body: JSON.stringify({
        type: "/docs#error-rate_limited",
        title: "Rate limit exceeded",
        status: 429,
        detail: "slow down",
        code: "rate_limited",
        request_id: "x",
      }),
    });
  });
  await expect(page.getByTestId("query-notice").first()).toContainText("live refresh is paused for 40 s", { timeout: 15_000 });
  await expect(rows).toHaveCount(shown);
  // Backing off: no second attempt within the 40 s Retry-After window, and the refresh resumes once it has passed.
  await page.clock.runFor(35_000);
  expect(refused).toBe(1);
  await page.clock.runFor(10_000);
  await expect.poll(() => refused).toBeGreaterThan(1);

  await page.unroute("**/api/predmkt/trades?**");
  await page.route("**/api/predmkt/events/*/activity-live?**", (route) =>
    route.fulfill({
      status: 502,
      headers: { "content-type": "application/problem+json" },
      body: JSON.stringify({
        type: "/docs#error-upstream_unavailable",
        title: "Upstream unavailable",
        status: 502,
        detail: "down",
        code: "upstream_unavailable",
        request_id: "y",
      }),
    }),
  );
  const slug = (await topEvent()).slug;
  await open(page, `/events/${slug}`);
  const feed = page.getByTestId("event-trades").locator("tbody tr");
  await expect(feed.first()).toBeVisible();
  await page.getByTestId("switch-side").getByRole("radio", { name: "Buys" }).click();
  await expect(page.getByText("The data source is not answering right now")).toBeVisible({ timeout: 20_000 });
  await expect(feed.first()).toBeVisible();
  await expect(page.getByTestId("markets-table")).toBeVisible();
});
