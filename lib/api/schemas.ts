// Shared zod building blocks for request parameters and response envelopes. The same schemas validate requests,
// type handlers and generate the OpenAPI document.
import { z } from "zod";
import { CONDITION_ID_FORMS, CONDITION_ID_PATTERN, MARKET_ID_PATTERN } from "@/lib/upstream/ids";

/** Integer query parameter with bounds and a default; a bad value is a 400, never a silent clamp. */
export function intParam(options: { min: number; max: number; default: number; description?: string }): z.ZodDefault<z.ZodCoercedNumber>;
export function intParam(options: { min: number; max: number; description?: string }): z.ZodOptional<z.ZodCoercedNumber>;
export function intParam(options: { min: number; max: number; default?: number; description?: string }) {
  const base = z.coerce.number().int().min(options.min).max(options.max);
  const described = options.description ? base.describe(options.description) : base;
  return options.default === undefined ? described.optional() : described.default(options.default);
}

export function numberParam(options: {
  min: number;
  max?: number;
  default: number;
  description?: string;
}): z.ZodDefault<z.ZodCoercedNumber>;
export function numberParam(options: { min: number; max?: number; description?: string }): z.ZodOptional<z.ZodCoercedNumber>;
export function numberParam(options: { min: number; max?: number; default?: number; description?: string }) {
  let base = z.coerce.number().min(options.min);
  if (options.max !== undefined) base = base.max(options.max);
  const described = options.description ? base.describe(options.description) : base;
  return options.default === undefined ? described.optional() : described.default(options.default);
}

/** Enumerated query parameter. With `caseInsensitive`, `buy` is accepted for `BUY`. */
export function enumParam<const T extends readonly [string, ...string[]]>(
  values: T,
  options: { default: T[number]; caseInsensitive?: boolean; description?: string },
): z.ZodType<T[number], string | undefined>;
export function enumParam<const T extends readonly [string, ...string[]]>(
  values: T,
  options?: { caseInsensitive?: boolean; description?: string },
): z.ZodType<T[number] | undefined, string | undefined>;
export function enumParam<const T extends readonly [string, ...string[]]>(
  values: T,
  options: { default?: T[number]; caseInsensitive?: boolean; description?: string } = {},
): z.ZodType {
  const inner = z.enum(values);
  const base = options.caseInsensitive
    ? z.preprocess((v) => (typeof v === "string" ? (values.find((x) => x.toLowerCase() === v.toLowerCase()) ?? v) : v), inner)
    : inner;
  const described = options.description ? base.describe(options.description) : base;
  return options.default === undefined ? described.optional() : described.default(options.default as never);
}

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,254}$/;
export const slugParam = z
  .string()
  .regex(SLUG_PATTERN, "must be lowercase letters, digits and dashes (1-255 chars)")
  .describe("Event slug");

export { CONDITION_ID_PATTERN } from "@/lib/upstream/ids";
const unanchored = (pattern: RegExp) => pattern.source.replace(/^\^/, "").replace(/\$$/, "");
/** Either id form as one regular expression, so the OpenAPI document carries it as the parameter's `pattern`. */
const MARKET_OR_CONDITION_ID = new RegExp(`^(?:${unanchored(MARKET_ID_PATTERN)}|${unanchored(CONDITION_ID_PATTERN)})$`);
export const marketIdParam = z
  .string()
  .regex(MARKET_OR_CONDITION_ID, `must be a Gamma market id (digits) or a condition id (${CONDITION_ID_FORMS})`)
  .describe(`Gamma market id (digits) or condition id: ${CONDITION_ID_FORMS}`);

const SourceSchema = z.enum(["sampled", "live", "chain"]);

export const MetaSchema = z
  .object({
    source: SourceSchema,
    as_of: z.string().nullable().describe("ISO 8601 UTC time of the data (not of the request); null before the first sample"),
    cache: z.enum(["hit", "miss", "stale"]).optional().describe("Live endpoints: whether the body came from our cache"),
    age_s: z.number().optional().describe("Live endpoints: age of the cached body in seconds"),
    limit: z.number().int().optional(),
    offset: z.number().int().optional(),
    total: z.number().int().optional(),
    count: z.number().int().optional(),
  })
  .catchall(z.unknown())
  .meta({ id: "Meta" });
export type Meta = z.infer<typeof MetaSchema>;

/** `{data, meta}` success envelope around a data schema. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ data, meta: MetaSchema });
}
