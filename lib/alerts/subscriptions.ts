// Webhook subscriptions (docs/alerts.md#subscriptions): each belongs to the key that created it and is invisible to
// every other key (another key's id answers 404, as an unknown one). A rotated key's subscriptions belong to its
// successor: the rotation moves them in its transaction (moveSubscriptionsToSuccessor, a listener wired by
// lib/server/key-rotation.ts), and a request made with the old key during its grace period acts on its successor's.
// Per-tier limits on subscriptions and on rules answer 403 `limit_exceeded`.
import { randomBytes } from "node:crypto";
import { ApiError, invalidParameter } from "@/lib/api/errors";
import type { Tier } from "@/lib/auth/tiers";
import type { Db } from "@/lib/db/client";
import { env } from "@/lib/env";
import type { AlertSubscription } from "@/lib/generated/prisma/client";
import { newestSeq } from "@/lib/stream/read";
import type { Rule } from "./rules";
import { newSigningSecret } from "./sign";
import { checkTarget, defaultPolicy, type Resolver, systemResolver, type TargetPolicy, TargetRefused } from "./ssrf";

interface AlertLimits {
  subscriptions: number;
  rules: number;
}

export function alertLimits(tier: Tier): AlertLimits {
  switch (tier) {
    case "starter":
      return { subscriptions: env.ALERTS_SUBSCRIPTIONS_STARTER, rules: env.ALERTS_RULES_STARTER };
    case "pro":
      return { subscriptions: env.ALERTS_SUBSCRIPTIONS_PRO, rules: env.ALERTS_RULES_PRO };
    case "enterprise":
      return { subscriptions: env.ALERTS_SUBSCRIPTIONS_ENTERPRISE, rules: env.ALERTS_RULES_ENTERPRISE };
  }
}

export interface Caller {
  keyId: string;
  tier: Tier;
}

interface TargetDeps {
  policy?: TargetPolicy;
  resolve?: Resolver;
}

interface SubscriptionView {
  id: string;
  name: string;
  url: string;
  rules: Rule[];
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

function subscriptionView(s: AlertSubscription): SubscriptionView {
  return {
    id: s.id,
    name: s.name,
    url: s.url,
    rules: s.rules as unknown as Rule[],
    enabled: s.enabled,
    disabled_reason: s.disabledReason,
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
  };
}

/** The view with the signing secret: only the answers to creation and rotation. */
function viewWithSecret(s: AlertSubscription): SubscriptionView & { secret: string } {
  return { ...subscriptionView(s), secret: s.secret };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The key that owns what `keyId` owns: the key itself, or the successor it was rotated into (followed to the end). */
async function owningKeyId(db: Db, keyId: string): Promise<string> {
  let current = keyId;
  for (let hop = 0; hop < 20 && UUID.test(current); hop++) {
    const key = await db.apiKey.findUnique({ where: { id: current }, select: { replacedById: true } });
    if (!key?.replacedById) return current;
    current = key.replacedById;
  }
  return current;
}

/** A rotation listener (lib/server/key-rotation.ts), run in the rotation's transaction: the old key's subscriptions now
 * belong to its successor. */
export async function moveSubscriptionsToSuccessor(db: Pick<Db, "alertSubscription">, oldKeyId: string, newKeyId: string): Promise<number> {
  const moved = await db.alertSubscription.updateMany({ where: { keyId: oldKeyId }, data: { keyId: newKeyId } });
  return moved.count;
}

async function checkedUrl(raw: string, deps: TargetDeps): Promise<string> {
  try {
    return (await checkTarget(raw, deps.policy ?? defaultPolicy(), deps.resolve ?? systemResolver)).url.toString();
  } catch (error) {
    if (error instanceof TargetRefused) throw invalidParameter("url", error.message);
    throw error;
  }
}

function checkRuleLimit(tier: Tier, rules: Rule[]): void {
  const limit = alertLimits(tier).rules;
  if (rules.length > limit)
    throw new ApiError("limit_exceeded", `The ${tier} tier allows ${limit} rules per subscription; ${rules.length} were given.`, {
      errors: [{ parameter: "rules", detail: `must hold at most ${limit} rules on the ${tier} tier` }],
    });
}

export async function findOwned(db: Db, caller: Caller, id: string): Promise<AlertSubscription> {
  const owner = await owningKeyId(db, caller.keyId);
  const found = await db.alertSubscription.findFirst({ where: { id, keyId: owner } });
  // Another key's subscription is answered exactly like one that does not exist.
  if (!found) throw new ApiError("not_found", `No alert subscription '${id}'.`);
  return found;
}

export interface CreateInput {
  name: string;
  url: string;
  rules: Rule[];
  enabled: boolean;
}

export async function createSubscription(
  db: Db,
  caller: Caller,
  input: CreateInput,
  deps: TargetDeps = {},
): Promise<SubscriptionView & { secret: string }> {
  checkRuleLimit(caller.tier, input.rules);
  const owner = await owningKeyId(db, caller.keyId);
  const limit = alertLimits(caller.tier).subscriptions;
  const count = await db.alertSubscription.count({ where: { keyId: owner } });
  if (count >= limit)
    throw new ApiError("limit_exceeded", `The ${caller.tier} tier allows ${limit} alert subscriptions per key; this key has ${count}.`);
  const url = await checkedUrl(input.url, deps);
  const created = await db.alertSubscription.create({
    data: {
      id: `sub_${randomBytes(12).toString("base64url")}`,
      keyId: owner,
      name: input.name,
      url,
      rules: input.rules,
      enabled: input.enabled,
      secret: newSigningSecret(),
      // Events stored before the subscription existed never match it, even if the matcher has not reached them yet.
      fromSeq: BigInt(await newestSeq(db)),
    },
  });
  return viewWithSecret(created);
}

export async function listSubscriptions(db: Db, caller: Caller): Promise<SubscriptionView[]> {
  const owner = await owningKeyId(db, caller.keyId);
  const rows = await db.alertSubscription.findMany({ where: { keyId: owner }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map((s) => subscriptionView(s));
}

export async function getSubscription(db: Db, caller: Caller, id: string): Promise<SubscriptionView> {
  return subscriptionView(await findOwned(db, caller, id));
}

export interface UpdateInput {
  name?: string;
  url?: string;
  rules?: Rule[];
  enabled?: boolean;
}

export async function updateSubscription(
  db: Db,
  caller: Caller,
  id: string,
  input: UpdateInput,
  deps: TargetDeps = {},
): Promise<SubscriptionView> {
  const current = await findOwned(db, caller, id);
  if (input.rules) checkRuleLimit(caller.tier, input.rules);
  const url = input.url === undefined ? undefined : await checkedUrl(input.url, deps);
  const reenabled = input.enabled === true && !current.enabled;
  const updated = await db.alertSubscription.update({
    where: { id: current.id },
    data: {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(url === undefined ? {} : { url }),
      ...(input.rules === undefined ? {} : { rules: input.rules }),
      ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
      // Enabled again by its owner: the service's reason and the failure run start over.
      ...(reenabled ? { disabledReason: null, failingSince: null } : {}),
      ...(input.enabled === false ? { disabledReason: null } : {}),
      updatedAt: new Date(),
    },
  });
  return subscriptionView(updated);
}

export async function deleteSubscription(db: Db, caller: Caller, id: string): Promise<void> {
  const current = await findOwned(db, caller, id);
  await db.$transaction([
    db.alertDelivery.deleteMany({ where: { subscriptionId: current.id } }),
    db.alertMoveMark.deleteMany({ where: { subscriptionId: current.id } }),
    db.alertSubscription.delete({ where: { id: current.id } }),
  ]);
}

export async function rotateSecret(db: Db, caller: Caller, id: string): Promise<SubscriptionView & { secret: string }> {
  const current = await findOwned(db, caller, id);
  const updated = await db.alertSubscription.update({
    where: { id: current.id },
    data: { secret: newSigningSecret(), updatedAt: new Date() },
  });
  return viewWithSecret(updated);
}
