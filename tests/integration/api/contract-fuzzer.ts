// The contract fuzzer: drives every operation of /api/openapi.json with requests generated (fast-check) from each
// parameter's schema in that document, and checks every answer against the same document.
// - valid requests (values drawn from the schema: enums, bounds, patterns, real ids) → 200, or 404 where the
//   operation documents it (a well-formed but unknown id), with a body that validates against the response schema;
// - hostile requests (one mutation of a valid request: an injection string, unicode, a huge number, an over-long or
//   control-character value, a repeated or unknown parameter, a malformed percent-encoding) → 400 problem+json naming
//   the parameter when the value breaks the schema, the valid answer when it does not;
// - never a 5xx, never an undocumented status, never a stack trace, every error body a valid Problem.
// Used by tests/integration/api/contract.test.ts (a short run) and `npm run fuzz` (FUZZ_RUNS per operation).
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020";
import { monitorEventLoopDelay } from "node:perf_hooks";
import fc from "fast-check";

interface Schema {
  type?: string | string[];
  enum?: string[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, Schema>;
}
interface Parameter {
  name: string;
  in: "path" | "query";
  required?: boolean;
  schema: Schema;
}
interface MediaType {
  schema: object;
}
export interface Operation {
  operationId: string;
  parameters?: Parameter[];
  security?: unknown[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, unknown>;
}

interface FuzzOptions {
  baseUrl: string;
  document: OpenApiDocument;
  /** The bearer credential each operation is called with (API key, cron secret, metrics token), if any. */
  bearerFor: (path: string, operation: Operation) => string | undefined;
  /** Real values by `<path> <parameter>` or by parameter name (slug, id, market_id, ...), mixed into the valid values. */
  realValues: Record<string, string[]>;
  /** Requests per operation: half valid, half hostile. */
  runsPerOperation: number;
  seed: number;
  concurrency?: number;
}

export interface FuzzReport {
  total: number;
  /** operationId → status → count. */
  byOperation: Record<string, Record<string, number>>;
  byStatus: Record<string, number>;
  failures: string[];
  /** Requests sent again after a connection error, and those errors by code. */
  resent: number;
  resentCauses: Record<string, number>;
  /** The longest this process's event loop stalled during the run (ms). */
  lagMaxMs?: number;
  /** operationId → wall time of its requests and their checks (ms), where the fuzzer measured it. */
  msByOperation?: Record<string, number>;
}

/** The same rules as lib/api/strict-query.ts, seen from outside: what every parameter value must satisfy. */
const MAX_PARAMETER_LENGTH = 512;

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
const CREDENTIALS = ["api_key", "token"];
const CRON_VALID_RUNS = 2;
const STALE_RETRIES = 3;
// A V8 stack frame ("at fn (/path/file.js:10:5)"), a module path or a source position. The frame's parts are bounded
// and stop at a parenthesis: with `.+` on both sides the test backtracked over the whole body for every "at " in it,
// 1.9 s for the 259 KB OpenAPI document on an idle core (most of the fuzz run's time).
const STACK_TRACE = /\bat [^()\n]{0,300}\([^()\n]{1,500}:\d+:\d+\)|node_modules|webpack-internal|\.tsx?:\d+/;

const NASTY = [
  "",
  " ",
  "-1",
  "0",
  "-0",
  "1e309",
  "1e3",
  "NaN",
  "Infinity",
  "-Infinity",
  "9".repeat(400),
  "9".repeat(600),
  "0x1F",
  "1.5",
  "1,5",
  " 5",
  "+5",
  "true",
  "null",
  "[]",
  "{}",
  "' OR '1'='1",
  "1; DROP TABLE api_keys;--",
  '" OR 1=1 --',
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "..%2F..%2Fetc",
  "%2F",
  "%00",
  "\u0000",
  "a\u0000b",
  "\t",
  "line\nbreak",
  "\u007f",
  "\u0085",
  "\u202e",
  "\ufeff",
  "😀".repeat(50),
  "Ω≈ç√",
  "a".repeat(513),
  "a".repeat(10_000),
  "%E0%A4%A",
  "\\",
  "${7*7}",
  "{{7*7}}",
  "$where",
  "buy",
  "BUY",
  "SeLl",
  "24h",
  "7d",
  "1m",
  "max",
  "trades,ticks",
  "trades, ticks",
  "volume",
  "liquidity",
];
/** Written into the query string as they are (not re-encoded): malformed or overlong percent-encodings. */
const RAW_ENCODINGS = ["%00", "%ZZ", "%E0%A4%A", "%C0%AF", "%FF", "%0A", "%25%30%30", "a%00b"];

const hostileValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.bigInt(), fc.bigInt({ min: 10n ** 30n, max: 10n ** 80n })).map(String) },
);

type Expectation = { kind: "valid" } | { kind: "invalid"; parameter: string } | { kind: "any" };

interface FuzzRequest {
  kind: "valid" | "hostile";
  pathValues: Record<string, string>;
  /** Each entry is [name, value]; `raw` entries are appended to the query string unencoded. */
  query: { name: string; value: string; raw?: boolean }[];
  body?: Record<string, unknown>;
  expectation: Expectation;
  /** Path segments sent undecodable or through `.`/`..`: the router may answer before the contract does. */
  routingMayDiffer?: boolean;
}

function isNumeric(schema: Schema): boolean {
  return schema.type === "integer" || schema.type === "number";
}

/** Whether the API must refuse this value for this parameter, accept it, or may do either (`null`). */
function classify(schema: Schema, value: string): "invalid" | "valid" | null {
  if (value.length > MAX_PARAMETER_LENGTH || CONTROL_CHARACTER.test(value)) return "invalid";
  if (isNumeric(schema)) {
    if (!DECIMAL.test(value)) return "invalid";
    const n = Number(value);
    if (!Number.isFinite(n)) return "invalid";
    if (schema.type === "integer" && !Number.isInteger(n)) return "invalid";
    if (schema.minimum !== undefined && n < schema.minimum) return "invalid";
    if (schema.maximum !== undefined && n > schema.maximum) return "invalid";
    return "valid";
  }
  if (schema.enum) {
    if (schema.enum.includes(value)) return "valid";
    // Some enums are case-insensitive (documented in their description), so a different case may pass.
    return schema.enum.some((e) => e.toLowerCase() === value.toLowerCase()) ? null : "invalid";
  }
  if (schema.pattern && !new RegExp(schema.pattern).test(value)) return "invalid";
  if (schema.maxLength !== undefined && value.length > schema.maxLength) return "invalid";
  // Free text is trimmed before its length is checked (q: 1-200 characters).
  if (schema.minLength !== undefined && value.trim().length < schema.minLength) return "invalid";
  // Text outside the Basic Multilingual Plane's well-formed range is re-encoded by the URL layer (lone surrogates
  // become U+FFFD), so what arrives is not what was drawn.
  if (!value.isWellFormed()) return null;
  return "valid";
}

function validValue(parameter: Parameter, realValues: (name: string) => string[]): fc.Arbitrary<string> {
  const { schema, name } = parameter;
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.type === "integer") {
    return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 }).map(String);
  }
  if (schema.type === "number") {
    const min = Math.ceil((schema.minimum ?? -1_000_000) * 100);
    const max = Math.floor((schema.maximum ?? 10_000_000) * 100);
    return fc.integer({ min, max }).map((cents) => String(cents / 100));
  }
  // Only real values the parameter's own schema accepts are valid here.
  const real = realValues(name).filter((v) => classify(schema, v) === "valid");
  const drawn = schema.pattern
    ? fc.stringMatching(new RegExp(schema.pattern)).filter((v) => v.length <= MAX_PARAMETER_LENGTH)
    : fc
        .string({ unit: "grapheme", minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 60, 60) })
        .filter((v) => classify(schema, v) === "valid");
  return real.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...real) }, { weight: 1, arbitrary: drawn }) : drawn;
}

function validBodyValue(name: string, schema: Schema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.type === "integer") return fc.integer({ min: schema.minimum ?? 0, max: schema.maximum ?? 1_000_000 });
  // The document gives an email field only a length; the name says what it holds.
  if (name === "email")
    return fc.tuple(fc.stringMatching(/^[a-z]{1,12}$/), fc.constantFrom("example.org", "example.com")).map(([u, d]) => `${u}@${d}`);
  const min = schema.minLength ?? 0;
  return fc.stringMatching(new RegExp(`^[A-Za-z][A-Za-z ]{${Math.max(0, min - 1)},${Math.max(0, min + 39)}}[A-Za-z]$`));
}

/** What the API must do with `value` in body field `name`; null when it may go either way. */
function bodyVerdict(name: string, schema: Schema, value: unknown): "valid" | "invalid" | null {
  if (schema.type === "integer") {
    // Digits as text are accepted where a form may post the field (key requests' counts), refused elsewhere.
    if (typeof value === "string" && /^\d+$/.test(value)) return null;
    const ok =
      typeof value === "number" &&
      Number.isInteger(value) &&
      value >= (schema.minimum ?? -Infinity) &&
      value <= (schema.maximum ?? Infinity);
    return ok ? "valid" : "invalid";
  }
  if (typeof value !== "string") return "invalid";
  if (schema.enum) return schema.enum.includes(value) ? "valid" : null;
  if (schema.maxLength !== undefined && value.length > schema.maxLength) return "invalid";
  // Text fields are trimmed before their length is checked; an email's syntax is not in the document.
  if (schema.minLength !== undefined && value.trim().length < schema.minLength) return "invalid";
  return null;
}

function operationArbitraries(operation: Operation, realValues: (name: string) => string[]) {
  const parameters = operation.parameters ?? [];
  const pathParams = parameters.filter((p) => p.in === "path");
  const queryParams = parameters.filter((p) => p.in === "query");
  const known = new Set([...parameters.map((p) => p.name), ...CREDENTIALS]);
  const bodySchema = operation.requestBody?.content["application/json"]?.schema as (Schema & { required?: string[] }) | undefined;
  const required = new Set(bodySchema?.required ?? []);
  // Body fields drawn from their schema: every required one, and the optional ones that are numbers or enums (an
  // optional free string may be a credential or a honeypot, which a valid request leaves out).
  const bodyFields = Object.entries(bodySchema?.properties ?? {}).filter(
    ([name, s]) => !CREDENTIALS.includes(name) && (required.has(name) || s.type === "integer" || !!s.enum),
  );

  const valid = fc.record({
    pathValues: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, validValue(p, realValues)]))),
    query: fc
      .tuple(
        ...queryParams.map((p) =>
          p.required
            ? validValue(p, realValues).map((value) => [{ name: p.name, value }])
            : fc
                .option(validValue(p, realValues), { nil: undefined })
                .map((value) => (value === undefined ? [] : [{ name: p.name, value }])),
        ),
      )
      .map((lists) => lists.flat()),
    body: fc.record(Object.fromEntries(bodyFields.map(([name, s]) => [name, validBodyValue(name, s)])), {
      requiredKeys: bodyFields.map(([name]) => name).filter((name) => required.has(name)),
    }),
  });

  type Mutation = (request: {
    pathValues: Record<string, string>;
    query: FuzzRequest["query"];
    body: Record<string, unknown>;
  }) => fc.Arbitrary<FuzzRequest>;
  const base = (r: Parameters<Mutation>[0]) => ({ kind: "hostile" as const, pathValues: r.pathValues, query: r.query, body: r.body });
  const mutations: Mutation[] = [
    // An unknown parameter, valid-looking or not. (Not `__proto__`: Next drops it from the URL before the route
    // handler sees it, so the request is answered as if it had not been sent.)
    (r) =>
      fc
        .oneof(fc.stringMatching(/^[a-z_]{1,20}$/), fc.constantFrom("constructor", "prototype", "limit[]", "LIMIT", "q ", "format"))
        .filter((name) => !known.has(name) && name !== "__proto__")
        .chain((name) =>
          hostileValue.map((value) => ({
            ...base(r),
            query: [...r.query, { name, value }],
            expectation: { kind: "invalid" as const, parameter: name },
          })),
        ),
  ];
  if (queryParams.length) {
    // A parameter sent twice.
    mutations.push((r) =>
      fc
        .constantFrom(...queryParams)
        .chain((p) => fc.tuple(fc.constant(p), validValue(p, realValues), validValue(p, realValues)))
        .map(([p, a, b]) => ({
          ...base(r),
          query: [...r.query.filter((q) => q.name !== p.name), { name: p.name, value: a }, { name: p.name, value: b }],
          expectation: { kind: "invalid" as const, parameter: p.name },
        })),
    );
    // A hostile value for one parameter.
    mutations.push((r) =>
      fc.tuple(fc.constantFrom(...queryParams), hostileValue).map(([p, value]) => {
        const verdict = classify(p.schema, value);
        const expectation: Expectation =
          verdict === "invalid" ? { kind: "invalid", parameter: p.name } : verdict === "valid" ? { kind: "valid" } : { kind: "any" };
        return { ...base(r), query: [...r.query.filter((q) => q.name !== p.name), { name: p.name, value }], expectation };
      }),
    );
    // A malformed or overlong percent-encoding, sent as it is.
    mutations.push((r) =>
      fc.tuple(fc.constantFrom(...queryParams), fc.constantFrom(...RAW_ENCODINGS)).map(([p, value]) => ({
        ...base(r),
        query: [...r.query.filter((q) => q.name !== p.name), { name: p.name, value, raw: true }],
        expectation: { kind: "any" as const },
      })),
    );
  }
  if (pathParams.length) {
    // A hostile path segment.
    mutations.push((r) =>
      fc.tuple(fc.constantFrom(...pathParams), hostileValue).map(([p, value]) => {
        const verdict = classify(p.schema, value);
        const routingMayDiffer = value === "" || value === "." || value === ".." || !value.isWellFormed();
        const expectation: Expectation =
          routingMayDiffer || verdict === null
            ? { kind: "any" }
            : verdict === "invalid"
              ? { kind: "invalid", parameter: p.name }
              : { kind: "valid" };
        return { ...base(r), pathValues: { ...r.pathValues, [p.name]: value }, expectation, routingMayDiffer };
      }),
    );
  }
  if (bodyFields.length) {
    // A body field of the wrong type, out of range or too long.
    mutations.push((r) =>
      fc
        .tuple(
          fc.constantFrom(...bodyFields),
          fc.oneof(hostileValue, fc.constantFrom<unknown>(null, true, [], {}, 1e309, -1, 1.5, 10 ** 12)),
        )
        .map(([[name, s], value]) => {
          const verdict = bodyVerdict(name, s, value);
          const expectation: Expectation =
            verdict === "valid" ? { kind: "valid" } : verdict === "invalid" ? { kind: "invalid", parameter: name } : { kind: "any" };
          return { ...base(r), body: { ...r.body, [name]: value }, expectation };
        }),
    );
  }
  const hostile = valid.chain((r) => fc.oneof(...mutations.map((m) => m(r))));
  // A required body field the fuzzer cannot draw a valid value for (an array or an object, e.g. alert rules): its
  // "valid" requests may be refused, so they are held to a documented answer only (the generated-client test sends a
  // truly valid one).
  const undrawable = [...required].some((name) => ["array", "object"].includes(String(bodySchema?.properties?.[name]?.type)));
  const expectation: Expectation = undrawable ? { kind: "any" } : { kind: "valid" };
  return { valid: valid.map((r): FuzzRequest => ({ kind: "valid", ...r, expectation })), hostile };
}

function buildUrl(baseUrl: string, path: string, request: FuzzRequest): string {
  let urlPath = path;
  for (const [name, value] of Object.entries(request.pathValues)) urlPath = urlPath.replace(`{${name}}`, encodeURIComponent(value));
  const encoded = new URLSearchParams(request.query.filter((q) => !q.raw).map((q) => [q.name, q.value])).toString();
  const raw = request.query.filter((q) => q.raw).map((q) => `${encodeURIComponent(q.name)}=${q.value}`);
  const search = [encoded, ...raw].filter(Boolean).join("&");
  return `${baseUrl}${urlPath}${search ? `?${search}` : ""}`;
}

class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  private readonly validators = new Map<object, ValidateFunction>();
  private readonly problem: ValidateFunction;

  constructor(private readonly document: OpenApiDocument) {
    this.problem = this.validator({ $ref: "#/components/schemas/Problem" });
  }

  validator(schema: object): ValidateFunction {
    let validate = this.validators.get(schema);
    if (!validate) {
      // The response schemas reference #/components/schemas/*: compile each with the document's components beside it.
      validate = this.ajv.compile({ ...schema, components: this.document.components });
      this.validators.set(schema, validate);
    }
    return validate;
  }

  /** Problems with this answer, as readable lines (empty when it is right). */
  async check(operation: Operation, request: FuzzRequest, response: Response): Promise<string[]> {
    const status = response.status;
    const type = response.headers.get("content-type") ?? "";
    const found: string[] = [];
    if (type.startsWith("text/event-stream")) {
      await response.body?.cancel();
    }
    const text = type.startsWith("text/event-stream") ? "" : await response.text();
    if (status >= 500) found.push(`5xx: ${status} ${text.slice(0, 300)}`);
    // An empty, `.` or `..` segment changes the path itself: the router's redirect or 404 answers before any contract.
    const routed = request.routingMayDiffer && (status === 308 || status === 404);
    if (!(String(status) in operation.responses) && !routed) found.push(`undocumented status ${status}: ${text.slice(0, 200)}`);
    if (STACK_TRACE.test(text)) found.push(`stack trace or source path in the body: ${text.slice(0, 300)}`);
    const expectation = request.expectation;
    // A documented 429 is the contract too (a per-address budget such as dashboard tokens): it must say when to retry.
    if (status === 429 && "429" in operation.responses) {
      if (!/^[1-9]\d*$/.test(response.headers.get("retry-after") ?? "")) found.push(`429 without a Retry-After: ${text.slice(0, 200)}`);
      return found;
    }
    const success = status >= 200 && status < 300 && String(status) in operation.responses;
    if (expectation.kind === "valid" && !success && !(status === 404 && "404" in operation.responses)) {
      found.push(`expected a documented 2xx (or 404), got ${status}: ${text.slice(0, 300)}`);
    }
    if (expectation.kind === "invalid" && status !== 400)
      found.push(`expected 400 naming '${expectation.parameter}', got ${status}: ${text.slice(0, 300)}`);
    if (status >= 400) {
      if (!type.startsWith("application/problem+json")) found.push(`error ${status} is ${type}, not application/problem+json`);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        found.push(`error body is not JSON: ${text.slice(0, 200)}`);
        return found;
      }
      if (!this.problem(body))
        found.push(`error body is not a Problem: ${this.ajv.errorsText(this.problem.errors)} in ${text.slice(0, 300)}`);
      const problem = body as { status?: number; errors?: { parameter: string }[] };
      if (problem.status !== status) found.push(`problem status ${problem.status} ≠ HTTP ${status}`);
      if (status === 400 && !problem.errors?.length) found.push(`400 without errors[]: ${text.slice(0, 200)}`);
      if (expectation.kind === "invalid" && status === 400 && !problem.errors?.some((e) => e.parameter === expectation.parameter)) {
        found.push(`400 does not name '${expectation.parameter}': ${text.slice(0, 300)}`);
      }
    } else if (success) {
      const media = operation.responses[String(status)]?.content ?? {};
      const documented = Object.keys(media).some((m) => m.split(";")[0].trim() === type.split(";")[0].trim());
      if (!documented) found.push(`${status} with undocumented content type ${type}`);
      const schema = media["application/json"]?.schema;
      if (type.startsWith("application/json") && schema) {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          found.push(`${status} body is not JSON: ${text.slice(0, 200)}`);
          return found;
        }
        const validate = this.validator(schema);
        if (!validate(body)) found.push(`${status} body does not match the response schema: ${this.ajv.errorsText(validate.errors)}`);
      }
    }
    return found;
  }
}

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

export async function fuzzContract(options: FuzzOptions): Promise<FuzzReport> {
  const report: FuzzReport = { total: 0, byOperation: {}, byStatus: {}, failures: [], resent: 0, resentCauses: {} };
  const lag = monitorEventLoopDelay({ resolution: 20 });
  lag.enable();
  const checker = new ResponseChecker(options.document);
  let index = 0;
  for (const [path, operations] of Object.entries(options.document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      index++;
      // A valid cron request runs a whole pass: those get few valid runs.
      const cron = path.startsWith("/api/cron/");
      // Real values by `<path> <name>` first (an `id` is not the same thing on every path), then by name.
      const real = (name: string) => options.realValues[`${path} ${name}`] ?? options.realValues[name] ?? [];
      const { valid, hostile } = operationArbitraries(operation, real);
      const validRuns = cron ? Math.min(CRON_VALID_RUNS, Math.ceil(options.runsPerOperation / 2)) : Math.ceil(options.runsPerOperation / 2);
      const hostileRuns = options.runsPerOperation - Math.ceil(options.runsPerOperation / 2);
      // A PATCH changes what its body names: the fuzzer's "valid" body may name nothing (a documented 400), so it is
      // held to a documented answer only.
      const validSamples = fc
        .sample(valid, { numRuns: validRuns, seed: options.seed + index })
        .map((r): FuzzRequest => (method === "patch" ? { ...r, expectation: { kind: "any" } } : r));
      const requests = [...validSamples, ...fc.sample(hostile, { numRuns: hostileRuns, seed: options.seed + 1000 + index })];
      const counts: Record<string, number> = (report.byOperation[operation.operationId] = {});
      const operationStarted = performance.now();
      await pool(requests, options.concurrency ?? 4, async (request) => {
        const url = buildUrl(options.baseUrl, path, request);
        const headers: Record<string, string> = {};
        const bearer = options.bearerFor(path, operation);
        if (bearer) headers.authorization = `Bearer ${bearer}`;
        let body: string | undefined;
        if (method === "post" || method === "patch") {
          headers["content-type"] = "application/json";
          body = JSON.stringify(request.body ?? {});
        }
        let response: Response | undefined;
        for (let attempt = 1; !response; attempt++) {
          try {
            response = await fetch(url, { method: method.toUpperCase(), headers, body, redirect: "manual" });
          } catch (error) {
            // fetch says only "fetch failed": the socket's own error (reset, closed, refused) is its cause.
            const cause = (error as { cause?: { code?: string; message?: string } }).cause;
            const code = cause?.code ?? String(error);
            // A kept-alive connection the server closed (idle past its keep-alive timeout) just as it was reused:
            // undici drops idle sockets a second or two before the server does, so this happens only when this
            // process's event loop lags that long (it does under load: `lagMaxMs`). Several pooled sockets can go
            // stale together, so such a request is sent again up to STALE_RETRIES times, each counted; anything
            // else, or one more failure, is a finding.
            if (attempt <= (code === "UND_ERR_SOCKET" ? STALE_RETRIES : 1)) {
              report.resent++;
              report.resentCauses[code] = (report.resentCauses[code] ?? 0) + 1;
              continue;
            }
            report.failures.push(
              `${method.toUpperCase()} ${url}: request failed ${attempt} times: ${String(error)}${cause ? ` (${cause.code ?? ""} ${cause.message ?? ""})` : ""}`,
            );
            return;
          }
        }
        report.total++;
        counts[response.status] = (counts[response.status] ?? 0) + 1;
        report.byStatus[response.status] = (report.byStatus[response.status] ?? 0) + 1;
        const problems = await checker.check(operation, request, response);
        for (const problem of problems) {
          report.failures.push(
            `${method.toUpperCase()} ${url.slice(0, 400)}${body ? ` body ${body.slice(0, 200)}` : ""} (${request.kind}): ${problem}`,
          );
        }
      });
      (report.msByOperation ??= {})[operation.operationId] = Math.round(performance.now() - operationStarted);
    }
  }
  lag.disable();
  report.lagMaxMs = Math.round(lag.max / 1e6);
  return report;
}

/** Requests, statuses by class and the findings: the fuzzer's totals line. */
export function formatTotals(report: FuzzReport): string {
  const classes: Record<string, number> = { "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0 };
  for (const [status, n] of Object.entries(report.byStatus)) classes[`${status[0]}xx`] = (classes[`${status[0]}xx`] ?? 0) + n;
  const byClass = Object.entries(classes)
    .map(([c, n]) => `${c} ${n}`)
    .join(", ");
  return `totals: ${report.total} requests; ${byClass}; findings ${report.failures.length}`;
}

/** The report as a table: one line per operation with its count per status, then the totals. */
export function formatReport(report: FuzzReport): string {
  const lines = Object.entries(report.byOperation).map(([operation, counts]) => {
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const statuses = Object.entries(counts)
      .map(([status, n]) => `${status}×${n}`)
      .join(" ");
    const ms = report.msByOperation?.[operation];
    return `${operation.padEnd(44)} ${String(total).padStart(6)} ${ms === undefined ? "" : `${String(ms).padStart(6)} ms`}  ${statuses}`;
  });
  const statuses = Object.entries(report.byStatus)
    .map(([status, n]) => `${status}×${n}`)
    .join(" ");
  return [
    ...lines,
    `${"total".padEnd(44)} ${String(report.total).padStart(6)}  ${statuses}`,
    formatTotals(report),
    `resent after a connection error: ${report.resent} ${JSON.stringify(report.resentCauses)}; longest event-loop stall here ${report.lagMaxMs ?? "?"} ms`,
    `failures: ${report.failures.length}`,
  ].join("\n");
}
