// The key lifecycle against a running server and the operator's CLI: a request filed through the public endpoint
// (JSON and a browser form post), its per-address limit and honeypot, the operator's queue (approve, reject, double
// approve), rotation with a grace period and expiry (README "API keys").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keysCli, printedKey } from "../../helpers/keys-cli";
import { type RunningApp, startApp } from "../../helpers/server";
import { pollUntil } from "../../helpers/poll";
import { HELD_LIMITER_CLOCK } from "../../helpers/rate-window";

let app: RunningApp;

beforeAll(async () => {
  // A one-second key cache, so a rotation or expiry is seen by the server within a second of the CLI's change.
  // One trusted proxy (TRUST_PROXY=1), so the limit test can file from an address no other test has used; the limiter's
  // clock held, so its filings all count in one window.
  app = await startApp({ env: { KEY_CACHE_TTL_S: "1", TRUST_PROXY: "1", ...HELD_LIMITER_CLOCK } });
});
afterAll(() => app?.stop());

const VALID = {
  name: "Acme Research",
  email: "ops@acme.example",
  use_case: "Daily digest of the largest market moves for our newsletter readers",
  requests_per_minute: 20,
  requests_per_day: 5000,
  desired_tier: "pro",
};

const postJson = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${app.url}/api/auth/key-requests`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

const useKey = (key: string) => fetch(`${app.url}/api/predmkt/x`, { headers: { authorization: `Bearer ${key}` } });

async function requests(all = true): Promise<{ reference: string; status: string; keyId: string | null; rejectReason: string | null }[]> {
  const listed = await keysCli(app, ["requests", ...(all ? ["--all"] : []), "--json"]);
  expect(listed.code, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout);
}

describe("key requests", () => {
  const references: string[] = [];

  it("a JSON request is stored pending and answered 201 with a kr_ reference", async () => {
    const res = await postJson(VALID);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.reference).toMatch(/^kr_[0-9a-f]{16}$/);
    expect(body.status).toBe("pending");
    expect(body.next_steps).toContain("/api/auth/usage");
    references.push(body.reference);
    const pending = await requests(false);
    expect(pending.map((r) => r.reference)).toContain(body.reference);
  });

  it("names each invalid field in a 400 problem, and stores nothing", async () => {
    const res = await postJson({
      ...VALID,
      email: "not-an-email",
      use_case: "too short",
      requests_per_minute: "many",
      desired_tier: "gold",
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    const problem = await res.json();
    expect(problem.code).toBe("invalid_parameter");
    expect(problem.errors.map((e: { parameter: string }) => e.parameter).sort()).toEqual([
      "desired_tier",
      "email",
      "requests_per_minute",
      "use_case",
    ]);
    expect(problem.errors.find((e: { parameter: string }) => e.parameter === "use_case").detail).toContain("20 characters");
    expect(await requests()).toHaveLength(1);
  });

  it("a browser form post is stored too and answered with a 303 back to the page", async () => {
    const form = new URLSearchParams({ ...VALID, name: "Form Co", requests_per_minute: "5", requests_per_day: "100", website: "" });
    const res = await fetch(`${app.url}/api/auth/key-requests`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      body: form,
      redirect: "manual",
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location")!, app.url);
    expect(location.pathname).toBe("/api-access");
    const reference = location.searchParams.get("ref")!;
    expect(reference).toMatch(/^kr_[0-9a-f]{16}$/);
    references.push(reference);
    expect((await requests()).map((r) => r.reference)).toContain(reference);

    const invalid = await fetch(`${app.url}/api/auth/key-requests`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      body: new URLSearchParams({ ...VALID, requests_per_minute: "5", requests_per_day: "100", use_case: "short" }),
      redirect: "manual",
    });
    expect(invalid.status).toBe(303);
    const back = new URL(invalid.headers.get("location")!, app.url);
    const state = JSON.parse(Buffer.from(back.searchParams.get("form")!, "base64url").toString("utf8"));
    expect(state.errors.map((e: { parameter: string }) => e.parameter)).toEqual(["use_case"]);
    expect(state.values.name).toBe(VALID.name);
  });

  it("a filled honeypot is answered like a success but never reaches the queue", async () => {
    const res = await postJson({ ...VALID, name: "Bot", website: "http://spam.example" });
    expect(res.status).toBe(201);
    const { reference } = await res.json();
    expect(reference).toMatch(/^kr_/);
    const stored = await requests();
    expect(stored.map((r) => r.reference)).not.toContain(reference);
    expect(stored).toHaveLength(2);
  });

  it("limits filings per client address (5 a minute), then 429 with Retry-After", async () => {
    // A fresh address, so the limiter's window holds no earlier filing from it.
    const from = { "x-forwarded-for": "198.51.100.77" };
    const before = (await requests()).length;
    for (let i = 0; i < 5; i++) {
      const res = await postJson({ ...VALID, name: `Extra ${i}` }, from);
      expect(res.status).toBe(201);
      references.push((await res.json()).reference);
    }
    const refused = await postJson({ ...VALID, name: "One too many" }, from);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).code).toBe("rate_limited");
    expect(await requests()).toHaveLength(before + 5);
    // Another address is not affected.
    expect((await postJson({ ...VALID, name: "Elsewhere" }, { "x-forwarded-for": "198.51.100.78" })).status).toBe(201);
  });

  it("approve issues a working key once; a decided request cannot be approved again; reject records the reason", async () => {
    const [first, second, third] = references;
    const approved = await keysCli(app, ["approve", first, "--tier", "starter", "--expires", "90d"]);
    const key = printedKey(approved);
    expect(approved.stderr).toContain("shown once");
    expect(approved.stderr).toContain("Acme Research <ops@acme.example>");
    const used = await useKey(key);
    expect(used.status).toBe(404);
    expect(used.headers.get("x-api-tier")).toBe("starter");
    expect(used.headers.get("sunset")).not.toBeNull(); // the 90-day expiry is announced

    const again = await keysCli(app, ["approve", first, "--tier", "pro"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already approved");
    expect(again.stdout).toBe("");

    const rejected = await keysCli(app, ["reject", second, "--reason", "Use case is covered by the public dashboard"]);
    expect(rejected.code).toBe(0);
    const approveRejected = await keysCli(app, ["approve", second, "--tier", "pro"]);
    expect(approveRejected.code).toBe(1);
    expect(approveRejected.stderr).toContain("already rejected");

    const byRef = new Map((await requests()).map((r) => [r.reference, r]));
    const keys = JSON.parse((await keysCli(app, ["list", "--json"])).stdout) as { id: string; prefix: string }[];
    expect(byRef.get(first)).toMatchObject({ status: "approved", keyId: keys.find((k) => k.prefix === key.slice(0, 12))!.id });
    expect(byRef.get(second)).toMatchObject({
      status: "rejected",
      rejectReason: "Use case is covered by the public dashboard",
      keyId: null,
    });
    expect(byRef.get(third)).toMatchObject({ status: "pending" });
    const pending = await keysCli(app, ["requests"]);
    expect(pending.stdout).toContain(third);
    expect(pending.stdout).not.toContain(first);
  });

  it("refuses malformed CLI usage with exit code 2", async () => {
    const noReason = await keysCli(app, ["reject", references[2]]);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain("--reason");
    const badDuration = await keysCli(app, ["approve", references[2], "--tier", "pro", "--expires", "3 months"]);
    expect(badDuration.code).toBe(2);
    expect(badDuration.stderr).toContain("30s, 15m, 24h or 90d");
  });
});

describe("rotation and expiry", () => {
  it("a rotated key keeps working, announcing its end, until the grace period ends; then 401 key_rotated", async () => {
    const old = printedKey(await keysCli(app, ["create", "--tier", "pro", "--owner", "Rotating Ltd", "--use-case", "rotation test"]));
    expect((await useKey(old)).status).toBe(404);
    const rotated = await keysCli(app, ["rotate", old.slice(0, 12), "--grace", "6s"]);
    const successor = printedKey(rotated);
    const graceEndsAt = Date.parse(/until (\S+),/.exec(rotated.stderr)![1]);
    expect(graceEndsAt).toBeGreaterThan(Date.now());

    const successorRes = await useKey(successor);
    expect(successorRes.status).toBe(404);
    expect(successorRes.headers.get("x-api-tier")).toBe("pro");
    expect(successorRes.headers.get("deprecation")).toBeNull();

    // Every request with the old key succeeds until the grace end (the server sees the rotation within its 1 s cache).
    const seen: { at: number; status: number; deprecation: string | null; sunset: string | null; code?: string }[] = [];
    await pollUntil(
      async () => {
        const at = Date.now();
        const res = await useKey(old);
        const entry = { at, status: res.status, deprecation: res.headers.get("deprecation"), sunset: res.headers.get("sunset") };
        seen.push(res.status === 401 ? { ...entry, code: (await res.json()).code } : entry);
        return res.status;
      },
      (status) => status === 401,
      15_000,
    );
    const refusal = seen.at(-1)!;
    expect(refusal.code).toBe("key_rotated");
    expect(refusal.at).toBeGreaterThanOrEqual(graceEndsAt - 1000);
    const beforeEnd = seen.slice(0, -1);
    expect(beforeEnd.every((s) => s.status === 404)).toBe(true);
    const announced = beforeEnd.filter((s) => s.deprecation !== null);
    expect(announced.length).toBeGreaterThan(0);
    expect(announced[0].deprecation).toMatch(/^@\d+$/);
    expect(Date.parse(announced[0].sunset!)).toBe(Math.floor(graceEndsAt / 1000) * 1000);
    expect((await useKey(successor)).status).toBe(404);

    const twice = await keysCli(app, ["rotate", old.slice(0, 12)]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain("already rotated");
  });

  it("a key past its expiry answers 401 key_expired, and so do its tokens", async () => {
    const key = printedKey(await keysCli(app, ["create", "--tier", "starter", "--owner", "Short Lived", "--expires", "5s"]));
    const tokenRes = await fetch(`${app.url}/api/auth/token`, { method: "POST", headers: { authorization: `Bearer ${key}` } });
    expect(tokenRes.status).toBe(200);
    const { token } = await tokenRes.json();
    const first = await useKey(key);
    expect(first.status).toBe(404);
    expect(first.headers.get("sunset")).not.toBeNull();
    const expiresAt = Date.parse(first.headers.get("sunset")!);
    const refused = await pollUntil(
      () => useKey(key),
      (res) => res.status !== 404,
      15_000,
    );
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
    expect(refused.status).toBe(401);
    expect((await refused.json()).code).toBe("key_expired");
    const byToken = await fetch(`${app.url}/api/predmkt/x?token=${token}`);
    expect(byToken.status).toBe(401);
    expect((await byToken.json()).code).toBe("key_expired");
  });
});
