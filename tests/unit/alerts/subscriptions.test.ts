// The subscriptions API through its route handlers on the embedded database: strict validation naming the field,
// ownership (one key cannot see or change another's), per-tier limits, secrets shown only on create and rotation,
// SSRF refusals at creation, and a rotated key's subscriptions moving to its successor in the rotation's transaction.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as collection from "@/app/api/alerts/route";
import * as one from "@/app/api/alerts/[id]/route";
import * as rotate from "@/app/api/alerts/[id]/rotate-secret/route";
import * as deliveries from "@/app/api/alerts/[id]/deliveries/route";
import * as retry from "@/app/api/alerts/[id]/deliveries/[delivery_id]/retry/route";
import * as testEvent from "@/app/api/alerts/[id]/test/route";
import { createApiKey } from "@/lib/auth/api-key";
import { closeDb, getDb } from "@/lib/db/client";
import { KeyRotationError, rotateApiKey } from "@/lib/keys/rotation";
import { rotateKey, rotationListeners } from "@/lib/server/key-rotation";
import { call, newKey } from "./request";

// A literal public address: no DNS involved, and nothing is ever sent to it by these tests.
const PUBLIC_URL = "https://93.184.215.14/hook";
const trade = { type: "trade", min_usd: 1000 };

// Opening and migrating the embedded database is the slow part: a hook, with the hook timeout.
beforeAll(() => getDb());
afterAll(() => closeDb());

async function create(key: ReturnType<typeof newKey>, body: Record<string, unknown> = {}) {
  return call(collection.POST, key, "POST", "/api/alerts", { body: { name: "mine", url: PUBLIC_URL, rules: [trade], ...body } });
}

describe("alert subscriptions", () => {
  it("creates with a whsec_ secret shown only on creation and rotation", async () => {
    const key = newKey();
    const created = await create(key);
    expect(created.status).toBe(201);
    const data = created.body.data as { id: string; secret: string; rules: unknown[]; enabled: boolean };
    expect(data.id).toMatch(/^sub_/);
    expect(data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(data.rules).toEqual([{ type: "trade", min_usd: 1000 }]);
    expect(data.enabled).toBe(true);

    const got = await call(one.GET, key, "GET", `/api/alerts/${data.id}`, { params: { id: data.id } });
    expect(got.status).toBe(200);
    expect(got.body.data).not.toHaveProperty("secret");
    const listed = await call(collection.GET, key, "GET", "/api/alerts");
    expect((listed.body.data as object[]).map((s) => s)).toEqual([got.body.data]);

    const rotated = await call(rotate.POST, key, "POST", `/api/alerts/${data.id}/rotate-secret`, { params: { id: data.id } });
    expect(rotated.status).toBe(200);
    const secret = (rotated.body.data as { secret: string }).secret;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(data.secret);
    await expect((await getDb()).alertSubscription.findUnique({ where: { id: data.id } })).resolves.toMatchObject({ secret });
  });

  it("one key cannot see or change another key's subscription", async () => {
    const owner = newKey();
    const other = newKey();
    const id = ((await create(owner)).body.data as { id: string }).id;
    const params = { id };
    expect((await call(one.GET, other, "GET", `/api/alerts/${id}`, { params })).status).toBe(404);
    expect((await call(one.PATCH, other, "PATCH", `/api/alerts/${id}`, { params, body: { name: "stolen" } })).status).toBe(404);
    expect((await call(rotate.POST, other, "POST", `/api/alerts/${id}/rotate-secret`, { params })).status).toBe(404);
    expect((await call(one.DELETE, other, "DELETE", `/api/alerts/${id}`, { params })).status).toBe(404);
    expect((await call(collection.GET, other, "GET", "/api/alerts")).body.data).toEqual([]);
    // Untouched for its owner, who can change and delete it.
    const mine = await call(one.GET, owner, "GET", `/api/alerts/${id}`, { params });
    expect((mine.body.data as { name: string }).name).toBe("mine");
    const patched = await call(one.PATCH, owner, "PATCH", `/api/alerts/${id}`, { params, body: { name: "renamed", enabled: false } });
    expect(patched.body.data).toMatchObject({ name: "renamed", enabled: false });
    expect((await call(one.DELETE, owner, "DELETE", `/api/alerts/${id}`, { params })).status).toBe(204);
    expect((await call(one.GET, owner, "GET", `/api/alerts/${id}`, { params })).status).toBe(404);
  });

  it("names the offending field of a bad body (RFC 9457)", async () => {
    const key = newKey();
    const cases: [Record<string, unknown>, string][] = [
      [{ rules: [{ type: "trade", min_usd: 1, colour: "red" }] }, "rules[0].colour"],
      [{ rules: [trade, { type: "move", window: "2h", min_change: 5 }] }, "rules[1].window"],
      [{ rules: [{ type: "move", window: "1h", min_change: 500 }] }, "rules[0].min_change"],
      [{ rules: [{ type: "whale", wallet: "0x12", min_usd: 1 }] }, "rules[0].wallet"],
      [{ rules: [{ type: "dispute", transitions: ["exploded"] }] }, "rules[0].transitions[0]"],
      [{ rules: [{ type: "trade", market_id: "123", event_slug: "some-event" }] }, "rules[0].event_slug"],
      [{ rules: [] }, "rules"],
      [{ rules: Array.from({ length: 21 }, () => trade) }, "rules"],
      [{ name: "" }, "name"],
      [{ enabled: "yes" }, "enabled"],
      [{ extra: 1 }, "extra"],
    ];
    for (const [patch, field] of cases) {
      const answer = await create(key, patch);
      expect(answer.status, field).toBe(400);
      expect(answer.body.code).toBe("invalid_parameter");
      expect(
        answer.body.errors?.map((e) => e.parameter),
        JSON.stringify(patch),
      ).toContain(field);
    }
    const notJson = await call(collection.POST, key, "POST", "/api/alerts", { rawBody: "{name:" });
    expect(notJson.status).toBe(400);
    expect((await call(collection.GET, key, "GET", "/api/alerts")).body.data).toEqual([]);
  });

  it("refuses private, loopback, link-local, metadata and non-https targets with a 400 naming url", async () => {
    const key = newKey();
    for (const url of [
      "https://10.0.0.5/hook",
      "https://127.0.0.1/hook",
      "https://[::1]/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://[fd00:ec2::254]/",
      "https://100.100.100.200/",
      "https://224.0.0.1/",
      "https://[::ffff:192.168.1.1]/",
      "https://0.0.0.0/",
      "http://93.184.215.14/hook",
      "https://user:pass@93.184.215.14/hook",
      "ftp://93.184.215.14/",
      "not a url",
    ]) {
      const answer = await create(key, { url });
      expect(answer.status, url).toBe(400);
      expect(answer.body.errors?.[0]?.parameter, url).toBe("url");
    }
    const id = ((await create(key)).body.data as { id: string }).id;
    const patched = await call(one.PATCH, key, "PATCH", `/api/alerts/${id}`, { params: { id }, body: { url: "https://192.168.0.10/" } });
    expect(patched.status).toBe(400);
    expect(patched.body.errors?.[0]?.parameter).toBe("url");
  });

  it("holds the per-tier limits on subscriptions (403) and rules (403 naming rules)", async () => {
    const starter = newKey("starter");
    for (let i = 0; i < 5; i++) expect((await create(starter)).status).toBe(201);
    const sixth = await create(starter);
    expect(sixth.status).toBe(403);
    expect(sixth.body.code).toBe("limit_exceeded");
    expect(sixth.body.detail).toMatch(/starter tier allows 5 alert subscriptions/);

    const rules6 = Array.from({ length: 6 }, () => trade);
    const tooMany = await create(newKey("starter"), { rules: rules6 });
    expect(tooMany.status).toBe(403);
    expect(tooMany.body.errors?.[0]?.parameter).toBe("rules");
    expect((await create(newKey("pro"), { rules: rules6 })).status).toBe(201);
    expect((await create(newKey("pro"), { rules: Array.from({ length: 20 }, () => trade) })).status).toBe(201);
  });

  it("moves a rotated key's subscriptions to its successor; the old key acts on them during its grace", async () => {
    const db = await getDb();
    const issued = await createApiKey(db, { tier: "pro", owner: "alerts test" });
    const oldKey = { keyId: issued.record.id, tier: "pro" as const };
    const id = ((await create(oldKey)).body.data as { id: string }).id;
    const rotation = await rotateKey(db, issued.record.id);
    const newKeyRef = { keyId: rotation.record.id, tier: "pro" as const };
    expect(await db.alertSubscription.findUnique({ where: { id } })).toMatchObject({ keyId: rotation.record.id });
    expect((await call(one.GET, newKeyRef, "GET", `/api/alerts/${id}`, { params: { id } })).status).toBe(200);
    expect((await call(one.GET, oldKey, "GET", `/api/alerts/${id}`, { params: { id } })).status).toBe(200);
    expect((await call(one.GET, newKey(), "GET", `/api/alerts/${id}`, { params: { id } })).status).toBe(404);
  });

  it("moves the subscriptions in the rotation's transaction: a rotation that fails after the move moves nothing", async () => {
    const db = await getDb();
    const issued = await createApiKey(db, { tier: "pro", owner: `alerts atomic ${Math.random()}` });
    const id = ((await create({ keyId: issued.record.id, tier: "pro" })).body.data as { id: string }).id;
    let movedInside = -1;
    const failing = [
      ...rotationListeners,
      async (tx: typeof db, { newKeyId }: { newKeyId: string }) => {
        // The move happened inside the transaction...
        movedInside = await tx.alertSubscription.count({ where: { id, keyId: newKeyId } });
        throw new KeyRotationError("a later listener failed");
      },
    ];
    await expect(rotateApiKey(db, issued.record.id, undefined, undefined, failing)).rejects.toThrow("a later listener failed");
    expect(movedInside).toBe(1);
    // ...and none of it committed: no successor, no mark, the subscription still the old key's.
    expect(await db.apiKey.count({ where: { owner: issued.record.owner } })).toBe(1);
    expect(await db.apiKey.findUnique({ where: { id: issued.record.id } })).toMatchObject({ replacedById: null, rotatedAt: null });
    expect(await db.alertSubscription.findUnique({ where: { id } })).toMatchObject({ keyId: issued.record.id });
    // The key can still be rotated, and then the subscription moves.
    const rotation = await rotateKey(db, issued.record.id);
    expect(await db.alertSubscription.findUnique({ where: { id } })).toMatchObject({ keyId: rotation.record.id });
  });

  it("queues a test event, lists the delivery log with filters, retries by id, and hides it from other keys", async () => {
    const key = newKey();
    const id = ((await create(key)).body.data as { id: string }).id;
    const params = { id };
    const sent = await call(testEvent.POST, key, "POST", `/api/alerts/${id}/test`, { params });
    expect(sent.status).toBe(201);
    const delivery = sent.body.data as { id: string; status: string; event_type: string; attempts: number };
    expect(delivery).toMatchObject({ status: "pending", event_type: "test", attempts: 0 });
    expect(delivery.id).toMatch(/^msg_/);
    const log = await call(deliveries.GET, key, "GET", `/api/alerts/${id}/deliveries?status=pending&limit=5`, { params });
    expect(log.status).toBe(200);
    expect((log.body.data as { id: string }[]).map((d) => d.id)).toEqual([delivery.id]);
    const none = await call(deliveries.GET, key, "GET", `/api/alerts/${id}/deliveries?status=dead`, { params });
    expect(none.body.data).toEqual([]);
    const bad = await call(deliveries.GET, key, "GET", `/api/alerts/${id}/deliveries?status=lost`, { params });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]?.parameter).toBe("status");
    const retried = await call(retry.POST, key, "POST", `/api/alerts/${id}/deliveries/${delivery.id}/retry`, {
      params: { id, delivery_id: delivery.id },
    });
    expect(retried.status).toBe(200);
    expect((retried.body.data as { id: string }).id).toBe(delivery.id);
    expect((await call(deliveries.GET, newKey(), "GET", `/api/alerts/${id}/deliveries`, { params })).status).toBe(404);
    expect((await call(testEvent.POST, newKey(), "POST", `/api/alerts/${id}/test`, { params })).status).toBe(404);
  });
});
