// Strict request parameters: before a contract's zod schema sees the query, every parameter must be one the
// endpoint documents, sent once, free of control characters, at most MAX_PARAMETER_LENGTH characters, and a
// number-typed parameter must be written as a plain decimal. Anything else is a 400 naming the parameter, rather
// than a value silently dropped, coerced (`0x1F` → 31, `` → 0) or passed on to the database (`%00`).
import { z } from "zod";
import type { EndpointContract } from "./contract";
import { isListEndpoint } from "./csv";
import { ApiError, type ParameterError } from "./errors";

/** Credentials the gateway reads from the query (proxy.ts, lib/auth/authenticate.ts): allowed on every endpoint. */
export const CREDENTIAL_PARAMETERS = ["api_key", "token"] as const;
const MAX_PARAMETER_LENGTH = 512;
// C0 and C1 control characters and DEL. Tabs and newlines included: no parameter of this API is multi-line text.

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

interface QueryShape {
  allowed: Set<string>;
  numeric: Set<string>;
  /** Accepted names, for the error detail. */
  names: string[];
}

const shapes = new WeakMap<EndpointContract, QueryShape>();

function isNumeric(field: z.ZodType): boolean {
  const json = z.toJSONSchema(field, { io: "input", unrepresentable: "any" }) as { type?: unknown };
  return json.type === "number" || json.type === "integer";
}

function queryShape(contract: EndpointContract): QueryShape {
  let shape = shapes.get(contract);
  if (shape) return shape;
  const fields: [string, z.ZodType][] = contract.query ? Object.entries<z.ZodType>(contract.query.shape) : [];
  const documented = [...fields.map(([name]) => name), ...(isListEndpoint(contract) ? ["format"] : [])];
  shape = {
    allowed: new Set([...documented, ...CREDENTIAL_PARAMETERS]),
    numeric: new Set(fields.filter(([, field]) => isNumeric(field)).map(([name]) => name)),
    names: documented,
  };
  shapes.set(contract, shape);
  return shape;
}

/** The problem for a text value (query or path) that no parameter of this API may carry, or null. */
function textValueProblem(value: string): string | null {
  if (value.length > MAX_PARAMETER_LENGTH) return `must be at most ${MAX_PARAMETER_LENGTH} characters`;
  if (CONTROL_CHARACTER.test(value)) return "must not contain control characters";
  return null;
}

function throwIfAny(errors: ParameterError[]): void {
  if (!errors.length) return;
  const detail = errors.map((e) => `'${e.parameter}': ${e.detail}`).join("; ");
  throw new ApiError("invalid_parameter", `Invalid parameter ${detail}`, { errors });
}

/** Path parameters as the router decoded them: the same text checks as query values. */
export function checkPathParams(raw: Record<string, string | string[] | undefined>): void {
  const errors: ParameterError[] = [];
  for (const [name, value] of Object.entries(raw)) {
    for (const part of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      const problem = textValueProblem(part);
      if (problem) errors.push({ parameter: name, detail: problem });
    }
  }
  throwIfAny(errors);
}

/**
 * The query as one string per parameter, after the strict checks; a 400 lists every offending parameter. The
 * credentials stay in the object only for the checks: the contract's schema strips what it does not declare.
 */
export function strictQuery(url: URL, contract: EndpointContract): Record<string, string> {
  const shape = queryShape(contract);
  const out: Record<string, string> = {};
  const errors: ParameterError[] = [];
  const reported = new Set<string>();
  const report = (parameter: string, detail: string) => {
    if (reported.has(parameter)) return;
    reported.add(parameter);
    errors.push({ parameter, detail });
  };
  const accepted = shape.names.length ? `this endpoint accepts ${shape.names.join(", ")}` : "this endpoint takes no query parameters";
  for (const [name, value] of url.searchParams) {
    if (!shape.allowed.has(name)) {
      const why = name === "format" ? "csv is available on list endpoints only" : "unknown parameter";
      report(textValueProblem(name) ? "query" : name, `${why}; ${accepted}`);
      continue;
    }
    if (name in out) {
      report(name, "must be sent once");
      continue;
    }
    out[name] = value;
    const problem = textValueProblem(value) ?? (shape.numeric.has(name) && !DECIMAL.test(value) ? "must be a decimal number" : null);
    if (problem) report(name, problem);
  }
  throwIfAny(errors);
  return out;
}
