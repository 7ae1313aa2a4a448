// A key's alert subscriptions as the operator's key tool lists them (`npm run keys -- alerts <key>`): no secrets,
// with each one's queue (undelivered, dead) and last delivery.
import type { Db } from "@/lib/db/client";

interface SubscriptionSummary {
  id: string;
  name: string;
  url: string;
  rules: string;
  enabled: boolean;
  disabled_reason: string;
  undelivered: number;
  dead: number;
  last_delivered: string;
}

export async function keySubscriptions(db: Db, keyId: string): Promise<SubscriptionSummary[]> {
  const subs = await db.alertSubscription.findMany({ where: { keyId }, orderBy: { createdAt: "asc" } });
  const out: SubscriptionSummary[] = [];
  for (const s of subs) {
    const counts = await db.alertDelivery.groupBy({ by: ["status"], where: { subscriptionId: s.id }, _count: { _all: true } });
    const count = (status: string) => counts.filter((c) => c.status === status).reduce((n, c) => n + c._count._all, 0);
    const last = await db.alertDelivery.findFirst({
      where: { subscriptionId: s.id, status: "delivered" },
      orderBy: { deliveredAt: "desc" },
    });
    out.push({
      id: s.id,
      name: s.name,
      url: s.url,
      rules: (s.rules as { type: string }[]).map((r) => r.type).join(","),
      enabled: s.enabled,
      disabled_reason: s.disabledReason ?? "",
      undelivered: count("pending") + count("failed"),
      dead: count("dead"),
      last_delivered: last?.deliveredAt?.toISOString() ?? "never",
    });
  }
  return out;
}
