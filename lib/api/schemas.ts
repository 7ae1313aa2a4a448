// Shared zod building blocks for request parameters and response envelopes. The same schemas validate requests,
// type handlers and generate the OpenAPI document.
import { z } from "zod";

/** Integer query parameter with bounds and a default; a bad value is a 400, never a silent clamp. */
export function intParam(options: { min: number; max: number; default: number; description?: string }): z.ZodDefault<z.ZodCoercedNumber>;
export function intParam(options: { min: number; max: number; description?: string }): z.ZodOptional<z.ZodCoercedNumber>;
export function intParam(options: { min: number; max: number; default?: number; description?: string }) {
  const base = z.coerce.number().int().min(options.min).max(options.max);
  const described = options.description ? base.describe(options.description) : base;
  return options.default === undefined ? described.optional() : described.default(options.default);
}

export function numberParam(options: { min: number; max?: number; default: number; description?: string }): z.ZodDefault<z.ZodCoercedNumber>;
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
    ? z.preprocess((v) => (typeof v === "string" ? values.find((x) => x.toLowerCase() === v.toLowerCase()) ?? v : v), inner)
    : inner;
  const described = options.description ? base.describe(options.description) : base;
  return options.default === undefined ? described.optional() : described.default(options.default as never);
}

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,254}$/;
export const slugParam = z
  .string()
  .regex(SLUG_PATTERN, "must be lowercase letters, digits and dashes (1-255 chars)")
  .describe("Event slug");

export const CONDITION_ID_PATTERN = /^0x[0-9a-fA-F]{64}$/;
export const marketIdParam = z
  .string()
  .refine((v) => /^\d{1,20}$/.test(v) || CONDITION_ID_PATTERN.test(v), "must be a Gamma market id (digits) or a condition id (0x + 64 hex)")
  .describe("Gamma market id (digits) or condition id (0x + 64 hex)");

export const SourceSchema = z.enum(["sampled", "live", "chain"]);

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
