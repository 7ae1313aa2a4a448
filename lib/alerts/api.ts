// What the alerts routes call (app/api/alerts/**, app/api/cron/alerts): each takes the gateway's client and the
// validated input, and answers the contract's body. The answers that carry a signing secret are never cached.
import type { GatewayClient } from "@/lib/auth/gateway";
import { getDb } from "@/lib/db/client";
import { type DeliveryStatus, listDeliveries, retryDelivery, sendTestEvent } from "./deliveries";
import { drainOnce } from "./sender";
import { matchOnce } from "./match";
import {
  alertLimits,
  type CreateInput,
  createSubscription,
  deleteSubscription,
  getSubscription,
  listSubscriptions,
  rotateSecret,
  type UpdateInput,
  updateSubscription,
} from "./subscriptions";

export const alertApi = {
  async list(client: GatewayClient) {
    const data = await listSubscriptions(await getDb(), client);
    return { data, meta: { count: data.length, limit: alertLimits(client.tier).subscriptions } };
  },
  async create(client: GatewayClient, body: CreateInput, headers: Headers) {
    headers.set("Cache-Control", "no-store");
    return { data: await createSubscription(await getDb(), client, body) };
  },
  async get(client: GatewayClient, id: string) {
    return { data: await getSubscription(await getDb(), client, id) };
  },
  async update(client: GatewayClient, id: string, body: UpdateInput) {
    return { data: await updateSubscription(await getDb(), client, id, body) };
  },
  async remove(client: GatewayClient, id: string) {
    await deleteSubscription(await getDb(), client, id);
    return null;
  },
  async rotateSecret(client: GatewayClient, id: string, headers: Headers) {
    headers.set("Cache-Control", "no-store");
    return { data: await rotateSecret(await getDb(), client, id) };
  },
  async test(client: GatewayClient, id: string) {
    return { data: await sendTestEvent(await getDb(), client, id) };
  },
  async deliveries(client: GatewayClient, id: string, query: { status?: DeliveryStatus; limit: number; cursor?: string }) {
    return listDeliveries(await getDb(), client, id, query);
  },
  async retry(client: GatewayClient, id: string, deliveryId: string) {
    return { data: await retryDelivery(await getDb(), client, id, deliveryId) };
  },
  /** Vercel: match everything new, then deliver what is due, within the function's time. */
  async cron() {
    const db = await getDb();
    let events = 0;
    let matched = 0;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const pass = await matchOnce(db);
      events += pass.events;
      matched += pass.queued;
      if (!pass.more || Date.now() > deadline) break;
    }
    const drained = await drainOnce(db);
    return { data: { events, matched, attempted: drained.attempted, delivered: drained.delivered, failed: drained.failed + drained.dead } };
  },
};
