// The key-request page end to end: reached from the header, a submission shows its reference (and the operator's
// queue has it), an invalid field is reported next to the field, and the form works with JavaScript disabled.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { expect, open, screenshots, test } from "./fixtures";
import { E2E_DATA_DIR } from "./stack";

const ROOT = path.resolve(__dirname, "../..");

/** The operator's view of the queue (`npm run keys -- requests --all --json`) on the demo stack's database. */
function queue(): { reference: string; name: string; status: string; useCase: string }[] {
  const out = execFileSync(
    process.execPath,
    [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/keys.ts", "requests", "--all", "--json"],
    {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: E2E_DATA_DIR, PGLITE_DIR: "" },
    },
  );
  return JSON.parse(out.toString()) as { reference: string; name: string; status: string; useCase: string }[];
}

async function fill(page: import("@playwright/test").Page, values: { name: string; useCase: string }) {
  await page.getByLabel("Name or organisation").fill(values.name);
  await page.getByLabel("Contact email").fill("research@example.org");
  await page.getByLabel("Use case").fill(values.useCase);
  await page.getByLabel("Expected requests per minute").fill("30");
  await page.getByLabel("Expected requests per day").fill("20000");
  await page.getByLabel("Desired tier").selectOption("pro");
}

test("the header links to API access; a request shows its reference and lands in the operator's queue", async ({ page }) => {
  await open(page, "/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API access" }).click();
  await expect(page).toHaveURL(/\/api-access$/);
  await expect(page.getByRole("heading", { name: "API access", level: 1 })).toBeVisible();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await fill(page, { name: "E2E Research (JS)", useCase: "Tracking how prices react to news for a university course" });
  await page.getByRole("button", { name: "Request a key" }).click();
  const reference = await page.getByTestId("reference").textContent();
  expect(reference).toMatch(/^kr_[0-9a-f]{16}$/);
  await expect(page.getByTestId("request-received")).toContainText("email you gave");
  // Posted in place: no navigation happened.
  await expect(page).toHaveURL(/\/api-access$/);
  const stored = queue().find((r) => r.reference === reference);
  expect(stored).toMatchObject({ name: "E2E Research (JS)", status: "pending" });
  await screenshots(page, "api-access");
});

test("an invalid field is reported next to that field, and nothing is stored", async ({ page }) => {
  await open(page, "/api-access");
  await fill(page, { name: "E2E Too Short", useCase: "too short" });
  await page.getByRole("button", { name: "Request a key" }).click();
  const error = page.getByTestId("error-use_case");
  await expect(error).toContainText("at least 20 characters");
  await expect(page.getByLabel("Use case")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Use case")).toHaveAttribute("aria-describedby", "use_case-error");
  await expect(page.getByTestId("error-name")).toHaveCount(0);
  await expect(page.getByTestId("reference")).toHaveCount(0);
  expect(queue().map((r) => r.name)).not.toContain("E2E Too Short");
});

test("without JavaScript the form posts, redirects back and shows the reference; errors come back next to the fields", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto("/api-access");
    await fill(page, { name: "E2E Research (no JS)", useCase: "Weekly newsletter charts of the most traded markets" });
    await page.getByRole("button", { name: "Request a key" }).click();
    await expect(page).toHaveURL(/\/api-access\?ref=kr_[0-9a-f]{16}$/);
    const reference = new URL(page.url()).searchParams.get("ref");
    await expect(page.getByTestId("reference")).toHaveText(reference!);
    expect(queue().find((r) => r.reference === reference)).toMatchObject({ name: "E2E Research (no JS)", status: "pending" });

    // A rejected post comes back as ?form=… (the API's field errors and the submitted values), rendered by the server.
    const response = await page.request.post("/api/auth/key-requests", {
      headers: { accept: "text/html", "content-type": "application/x-www-form-urlencoded" },
      data: "name=No+JS+Co&email=nope&use_case=short&requests_per_minute=3&requests_per_day=9&desired_tier=starter&website=",
      maxRedirects: 0,
    });
    expect(response.status()).toBe(303);
    await page.goto(response.headers().location);
    await expect(page.getByTestId("error-email")).toContainText("email address");
    await expect(page.getByTestId("error-use_case")).toContainText("at least 20 characters");
    await expect(page.getByLabel("Name or organisation")).toHaveValue("No JS Co");
    await expect(page.getByTestId("reference")).toHaveCount(0);
  } finally {
    await context.close();
  }
});
