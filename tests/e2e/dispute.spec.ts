// The dispute page: from the oracle page to one dispute (its market, price chart, vote, voters holding positions, each
// wallet linked to its wallet page), on to the market's event page, and back from the event page to the dispute.
import { api, waitForSampledData } from "./stack";
import { expect, open, screenshots, test } from "./fixtures";

interface Dispute {
  id: string;
  title: string | null;
  market: { question: string; event_slug: string } | null;
  voter_positions?: unknown[];
}

test("dispute page: market, price chart, vote and voters holding positions; links to and from the event page", async ({ page }) => {
  await waitForSampledData();
  const disputes = await api<{ data: Dispute[] }>("/api/oracle/disputes");
  // The seeded Q1 (settled, its market closed): four reveals, stakers 1-3 hold its market (sim/polymarket/disputed.ts).
  const dispute = disputes.data.find((d) => d.title?.startsWith('Will "Team A"'))!;
  expect(dispute.market).not.toBeNull();

  await open(page, "/oracle");
  const row = page.getByTestId("disputes-table").locator("tbody tr").filter({ hasText: dispute.title! });
  await expect(row.getByTestId("dispute-market-link")).toHaveText(dispute.market!.question);
  await row.locator("a.row-title").click();

  await expect(page).toHaveURL(new RegExp(`/oracle/disputes/${dispute.id}$`));
  // The first visit builds the detail (the market's CLOB history and holders, the voters' code and stakes): ~2 s on an
  // idle machine, over 20 s seen on a CI machine shared with other builds, hence the longer wait for this one step.
  await expect(page.getByTestId("dispute-title")).toHaveText(dispute.title!, { timeout: 60_000 });
  await expect(page.getByTestId("dispute-figures").locator("dd").last()).toContainText("$");
  await expect(page.getByTestId("chart").locator(".recharts-line-curve").first()).toBeVisible();
  await expect(page.getByTestId("dispute-vote")).toContainText("Yes");
  await expect(page.getByTestId("voter-positions").locator("tbody tr")).toHaveCount(3);
  await expect(page.getByTestId("voter-positions")).toContainText("proxy wallet");
  // Every wallet shown links to its wallet page: the voters' positions and the largest holders.
  await expect(page.getByTestId("voter-positions").locator('a[href^="/wallets/0x"]')).toHaveCount(3);
  await expect(page.getByTestId("dispute-holders").locator('a[href^="/wallets/0x"]').first()).toBeVisible();
  // How it reached its market, and the adapter's reset on its first dispute (components/oracle/dispute-join.tsx).
  await expect(page.getByTestId("dispute-join")).toContainText(
    `Joined by its questionID (Gamma's questionID): ${dispute.market!.question}`,
  );
  await expect(page.getByTestId("dispute-join")).toContainText("The adapter reset the question in this dispute's transaction");
  await screenshots(page, "dispute");

  // An open disputed market's event page links back to its dispute.
  const open_ = disputes.data.find((d) => d.title?.startsWith("Will it snow in Paris"))!;
  await open(page, `/events/${open_.market!.event_slug}`);
  await page.getByTestId("event-disputes").getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/oracle/disputes/${open_.id}$`));
  await page.getByTestId("dispute-event-link").click();
  await expect(page).toHaveURL(new RegExp(`/events/${open_.market!.event_slug}$`));
});
