// The wallet page renders a simulator ledger wallet's figures, Polymarket's figures beside ours, the PnL chart, the
// open/closed positions tabs and the activity; a malformed address shows the not-found page.
import { api } from "./stack";
import { expect, open, test } from "./fixtures";
import { ledgerWalletAddress } from "@/sim/polymarket/wallets";

type WalletBody = { data: { pnl_usd: number; labels: string[]; trades: number }; meta: { complete: boolean } };

test("wallet page: figures, reconciliation, chart, positions tabs and activity of a wallet with redeemed winners", async ({ page }) => {
  const address = ledgerWalletAddress(0);
  const expected = await api<WalletBody>(`/api/predmkt/wallets/${address}`);
  expect(expected.meta.complete).toBe(true);
  await open(page, `/wallets/${address.toUpperCase().replace("0X", "0x")}`);
  await expect(page.getByTestId("wallet-title")).toBeVisible();
  await expect(page.getByTestId("wallet-pnl")).toContainText("$");
  for (const label of expected.data.labels) await expect(page.getByTestId("wallet-labels")).toContainText(label.replace("_", " "));
  await expect(page.getByTestId("wallet-reconciliation").locator("tbody tr")).toHaveCount(3);
  await expect(page.getByTestId("wallet-positions").locator("tbody tr")).not.toHaveCount(0);
  await expect(page.getByTestId("wallet-activity").locator("tbody tr")).not.toHaveCount(0);
  await page.getByTestId("tab-closed").click();
  await expect(page).toHaveURL(/tab=closed/);
  await expect(page.getByTestId("wallet-positions")).toContainText("redeemed");
});

test("wallet page: a malformed address shows the not-found page", async ({ page }) => {
  // The dashboard's pages stream behind a loading state, so Next answers a streamed not-found page with status 200:
  // what the visitor sees is the not-found page, not a wallet.
  await page.goto("/wallets/0x123");
  await expect(page.getByText("This page could not be found.")).toBeVisible();
  await expect(page.getByTestId("wallet-positions")).toHaveCount(0);
});
