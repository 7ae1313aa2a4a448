// Alert rules (docs/alerts.md#rules): each a JSON object with `type` and filters. The schemas are strict (an unknown
// field is a 400 naming it) and are shared by the API contract and the matcher, so what is accepted is what is matched.
import { z } from "zod";
import { MOVER_WINDOWS } from "@/lib/predmkt/windows";
import { CONDITION_ID_PATTERN, MARKET_ID_PATTERN, sameCondition } from "@/lib/upstream/ids";

const MAX_RULES = 20;
const RULE_TYPES = ["trade", "move", "abnormal", "whale", "dispute"] as const;

/** The resolution stream's transitions (docs/stream.md#resolution). */
const DISPUTE_TRANSITIONS = ["disputed", "voting", "commit", "reveal", "rolled", "resolved", "settled"] as const;

const marketId = z
  .string()
  .refine((v) => MARKET_ID_PATTERN.test(v) || CONDITION_ID_PATTERN.test(v), "must be a Gamma market id (digits) or a condition id")
  .describe("Gamma market id (digits) or condition id");
const eventSlug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,254}$/, "must be an event slug (lowercase letters, digits and dashes)")
  .describe("Event slug");
const wallet = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be a wallet address (0x + 40 hex digits)")
  .transform((v) => v.toLowerCase())
  .describe("Wallet (proxy wallet) address");
const usd = (what: string) => z.number({ error: "must be a number" }).min(0, "must be at least 0").max(1e12).describe(what);

// At most one scope field in a rule: `market_id` and `event_slug` (and `wallet` where allowed) are alternatives.
function oneScope<T extends z.ZodObject>(schema: T, fields: string[]): T {
  return schema.superRefine((rule, context) => {
    const given = fields.filter((f) => (rule as Record<string, unknown>)[f] !== undefined);
    if (given.length > 1)
      context.addIssue({ code: "custom", path: [given[1]], message: `give only one of ${fields.join(", ")} (${given[0]} is set)` });
  });
}

const TradeRuleSchema = oneScope(
  z.strictObject({
    type: z.literal("trade"),
    market_id: marketId.optional(),
    event_slug: eventSlug.optional(),
    wallet: wallet.optional(),
    side: z.enum(["BUY", "SELL"], { error: "must be BUY or SELL" }).optional(),
    min_usd: usd("Smallest trade (USD) that matches; default 0").default(0),
  }),
  ["market_id", "event_slug", "wallet"],
);

const MoveRuleSchema = oneScope(
  z.strictObject({
    type: z.literal("move"),
    market_id: marketId.optional(),
    event_slug: eventSlug.optional(),
    window: z.enum(MOVER_WINDOWS, { error: `must be one of ${MOVER_WINDOWS.join(", ")}` }).describe("Look-back window, as /movers"),
    min_change: z
      .number({ error: "must be a number" })
      .gt(0, "must be above 0")
      .max(100, "must be at most 100")
      .describe("Smallest absolute change in probability points (5 = 5 points = 0.05 of /movers `change`)"),
  }),
  ["market_id", "event_slug"],
);

const AbnormalRuleSchema = oneScope(
  z.strictObject({
    type: z.literal("abnormal"),
    market_id: marketId.optional(),
    event_slug: eventSlug.optional(),
    min_score: z.number({ error: "must be a number" }).min(0, "must be at least 0").default(0).describe("Smallest /abnormal `score`"),
  }),
  ["market_id", "event_slug"],
);

const WhaleRuleSchema = oneScope(
  z.strictObject({
    type: z.literal("whale"),
    wallet: wallet.optional(),
    market_id: marketId.optional(),
    min_usd: usd("Smallest change of a position (USD) that matches"),
  }),
  ["wallet", "market_id"],
);

const DisputeRuleSchema = oneScope(
  z.strictObject({
    type: z.literal("dispute"),
    market_id: marketId.optional(),
    event_slug: eventSlug.optional(),
    transitions: z
      .array(z.enum(DISPUTE_TRANSITIONS, { error: `must be one of ${DISPUTE_TRANSITIONS.join(", ")}` }))
      .min(1, "must list at least one transition")
      .optional()
      .describe("Transitions that match (default: all)"),
  }),
  ["market_id", "event_slug"],
);

export const RuleSchema = z.discriminatedUnion(
  "type",
  [TradeRuleSchema, MoveRuleSchema, AbnormalRuleSchema, WhaleRuleSchema, DisputeRuleSchema],
  {
    error: `each rule needs a 'type': one of ${RULE_TYPES.join(", ")}`,
  },
);
export type Rule = z.output<typeof RuleSchema>;

export const RulesSchema = z
  .array(RuleSchema)
  .min(1, "must hold at least one rule")
  .max(MAX_RULES, `must hold at most ${MAX_RULES} rules`)
  .describe(`1 to ${MAX_RULES} rules (fewer on some tiers); a match of any rule is delivered`);

/** A rule's market filter: a Gamma id matches the market id, a condition id the condition (case and padding aside). */
export function marketMatches(filter: string | undefined, marketId: string | null, conditionId: string | null): boolean {
  if (filter === undefined) return true;
  if (MARKET_ID_PATTERN.test(filter)) return filter === marketId;
  return sameCondition(filter, conditionId);
}
