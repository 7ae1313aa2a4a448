// Contracts of the alerts API (docs/alerts.md): webhook subscriptions over the stored stream, their deliveries, and
// the cron entry point that matches and drains on Vercel.
import { z } from "zod";
import { DELIVERY_STATUSES } from "@/lib/alerts/deliveries";
import { RulesSchema } from "@/lib/alerts/rules";
import { defineEndpoint } from "../contract";
import { intParam } from "../schemas";

const TAGS = ["Alerts"];

const SubscriptionSchema = z
  .object({
    id: z.string().describe("`sub_…`"),
    name: z.string(),
    url: z.string().describe("The https endpoint deliveries are POSTed to"),
    rules: z.array(z.record(z.string(), z.unknown())).describe("The rules as stored (defaults filled in)"),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().describe("Set when the service disabled it (every delivery failed for 24 h)"),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "AlertSubscription" });

const SubscriptionWithSecretSchema = SubscriptionSchema.extend({
  secret: z.string().describe("`whsec_…`: the signing secret, shown only on creation and rotation; keep it"),
}).meta({ id: "AlertSubscriptionWithSecret" });

const idParams = z.object({
  id: z
    .string()
    .regex(/^sub_[A-Za-z0-9_-]{16}$/, "must be a subscription id (sub_…)")
    .describe("Subscription id"),
});

const name = z
  .string({ error: "must be a string" })
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters")
  .describe("Your label for it");
const url = z.string({ error: "must be a string" }).max(2048, "must be at most 2048 characters").describe("https:// endpoint");
const enabled = z.boolean({ error: "must be true or false" });

const KEYED_WRITE_ERRORS = [403, 404, 413];

export const createAlertEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/alerts",
  summary: "Create an alert subscription (a webhook for rule matches)",
  description:
    "JSON body `{name, url, rules, enabled}`. Every match of a rule on the stored stream is POSTed to `url`, signed " +
    "per Standard Webhooks, at least once and in order. `url` must be https and resolve only to public addresses (a " +
    "private, loopback, link-local, multicast or metadata address is a 400 naming `url`). Answers 201 with the " +
    "subscription and its signing `secret` (`whsec_…`), shown only here and on rotation. Per-tier limits on " +
    "subscriptions per key and rules per subscription answer 403 `limit_exceeded`. Rules: docs/alerts.md.",
  tags: TAGS,
  access: "key",
  successStatus: 201,
  body: z.strictObject({ name, url, rules: RulesSchema, enabled: enabled.default(true) }),
  response: z.object({ data: SubscriptionWithSecretSchema }),
  errors: KEYED_WRITE_ERRORS,
});

export const listAlertsEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/alerts",
  summary: "Your key's alert subscriptions",
  tags: TAGS,
  access: "key",
  response: z.object({ data: z.array(SubscriptionSchema), meta: z.object({ count: z.number().int(), limit: z.number().int() }) }),
});

export const getAlertEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/alerts/{id}",
  summary: "One alert subscription",
  description: "Another key's subscription answers 404, like one that does not exist.",
  tags: TAGS,
  access: "key",
  params: idParams,
  response: z.object({ data: SubscriptionSchema }),
});

export const updateAlertEndpoint = defineEndpoint({
  method: "PATCH",
  path: "/api/alerts/{id}",
  summary: "Change an alert subscription's name, url, rules or enabled",
  description: "Fields not sent are kept. Enabling a subscription the service disabled clears its `disabled_reason`.",
  tags: TAGS,
  access: "key",
  params: idParams,
  body: z
    .strictObject({ name: name.optional(), url: url.optional(), rules: RulesSchema.optional(), enabled: enabled.optional() })
    .refine((b) => Object.keys(b).length > 0, "must change at least one of name, url, rules, enabled"),
  response: z.object({ data: SubscriptionSchema }),
  errors: KEYED_WRITE_ERRORS,
});

export const deleteAlertEndpoint = defineEndpoint({
  method: "DELETE",
  path: "/api/alerts/{id}",
  summary: "Delete an alert subscription and its delivery log",
  tags: TAGS,
  access: "key",
  params: idParams,
  successStatus: 204,
  response: z.null(),
});

export const rotateAlertSecretEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/alerts/{id}/rotate-secret",
  summary: "Replace a subscription's signing secret",
  description: "Answers the subscription with its new `secret`; deliveries from now on are signed with it.",
  tags: TAGS,
  access: "key",
  params: idParams,
  response: z.object({ data: SubscriptionWithSecretSchema }),
});

const DeliverySchema = z
  .object({
    id: z.string().describe("The webhook id (`msg_…`), the same on every attempt"),
    event_type: z.string().describe("trade, move, abnormal, whale, dispute or test"),
    created_at: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    last_attempt_at: z.string().nullable(),
    last_status_code: z.number().int().nullable(),
    next_attempt_at: z.string().nullable().describe("When the next attempt is due; null once delivered or dead"),
  })
  .meta({ id: "AlertDelivery" });

export const testAlertEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/alerts/{id}/test",
  summary: "Send one `test` event now",
  description: "Queues a `test` delivery behind the subscription's earlier ones (order is kept) and answers it.",
  tags: TAGS,
  access: "key",
  params: idParams,
  successStatus: 201,
  response: z.object({ data: DeliverySchema }),
});

export const listDeliveriesEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/alerts/{id}/deliveries",
  summary: "A subscription's delivery log, newest first",
  tags: TAGS,
  access: "key",
  params: idParams,
  query: z.object({
    status: z.enum(DELIVERY_STATUSES, { error: `must be one of ${DELIVERY_STATUSES.join(", ")}` }).optional(),
    limit: intParam({ min: 1, max: 100, default: 50, description: "Deliveries per page" }),
    cursor: z
      .string()
      .regex(/^\d{1,20}$/, "must be a cursor from meta.next_cursor")
      .optional()
      .describe("meta.next_cursor of the previous page"),
  }),
  response: z.object({
    data: z.array(DeliverySchema),
    meta: z.object({ count: z.number().int(), limit: z.number().int(), next_cursor: z.string().nullable() }),
  }),
});

export const retryDeliveryEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/alerts/{id}/deliveries/{delivery_id}/retry",
  summary: "Attempt a failed or dead delivery again now",
  description: "Same webhook id; it goes back to `pending`, due now. A delivered one answers 400 naming `delivery_id`.",
  tags: TAGS,
  access: "key",
  params: idParams.extend({
    delivery_id: z
      .string()
      .regex(/^msg_[A-Za-z0-9_-]{1,64}$/, "must be a delivery id (msg_…)")
      .describe("The webhook id"),
  }),
  response: z.object({ data: DeliverySchema }),
});

export const cronAlertsEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/cron/alerts",
  summary: "Match new stream events to alert rules and deliver what is due (cron)",
  description: "Vercel cron entry point (Authorization: Bearer $CRON_SECRET). A self-hosted server's worker does this continuously.",
  tags: ["System"],
  access: "public",
  response: z.object({
    data: z.object({
      matched: z.number().int().describe("Deliveries written"),
      events: z.number().int().describe("Stream events read"),
      attempted: z.number().int(),
      delivered: z.number().int(),
      failed: z.number().int(),
    }),
  }),
  errors: [401, 429],
});

export const endpoints = [
  createAlertEndpoint,
  listAlertsEndpoint,
  getAlertEndpoint,
  updateAlertEndpoint,
  deleteAlertEndpoint,
  rotateAlertSecretEndpoint,
  testAlertEndpoint,
  listDeliveriesEndpoint,
  retryDeliveryEndpoint,
  cronAlertsEndpoint,
];
