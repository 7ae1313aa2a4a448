import type { Metadata } from "next";
import Link from "next/link";
import { TryIt, type TryParam } from "@/components/docs/try-it";
import { ERROR_CODES } from "@/lib/api/errors";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { TierTable } from "@/components/tier-table";
import { exampleIdentifiers } from "@/lib/predmkt/lookup";

export const metadata: Metadata = { title: "API reference" };
// The document is built from the endpoint contracts at request time, exactly what /api/openapi.json serves.
export const dynamic = "force-dynamic";

/** The parts of a JSON Schema (draft 2020-12, as `z.toJSONSchema` writes it) this page renders. */
interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  description?: string;
  default?: string | number | boolean | null;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}

interface OperationObject {
  tags?: string[];
  summary?: string;
  description?: string;
  security?: unknown[];
  parameters?: { name: string; in: "path" | "query"; required?: boolean; description?: string; schema?: JsonSchema }[];
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema }> }>;
}

/** The parts of the OpenAPI 3.1 document `buildOpenApiDocument` writes that this page renders. */
interface OpenApiDocument {
  openapi: string;
  info: { description?: string; version: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

type Components = Record<string, JsonSchema>;

interface Operation {
  method: string;
  path: string;
  op: OperationObject;
}

/** Real identifiers for the "Try it" forms: the busiest open event and its biggest market, when sampled. */
async function examples(): Promise<Record<string, string>> {
  try {
    return await exampleIdentifiers();
  } catch {
    return {};
  }
}

function schemaType(schema: JsonSchema | undefined, components: Components): string {
  if (!schema) return "";
  if (schema.$ref) return schema.$ref.split("/").pop() ?? "";
  if (schema.enum) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(" | ");
  if (schema.anyOf) return schema.anyOf.map((s) => schemaType(s, components)).join(" | ");
  if (schema.type === "array") return `${schemaType(schema.items, components)}[]`;
  const bounds = [
    schema.minimum !== undefined ? `≥ ${schema.minimum}` : "",
    schema.maximum !== undefined ? `≤ ${schema.maximum}` : "",
    schema.minLength !== undefined ? `${schema.minLength}–${schema.maxLength ?? ""} chars` : "",
  ].filter(Boolean);
  return [Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any"), ...bounds].join(", ");
}

function resolve(schema: JsonSchema | undefined, components: Components): JsonSchema | undefined {
  if (schema?.$ref) return components[schema.$ref.split("/").pop() ?? ""];
  return schema;
}

function SchemaFields({ schema, components, depth = 0 }: { schema: JsonSchema | undefined; components: Components; depth?: number }) {
  const resolved = resolve(schema, components);
  const target = resolved?.type === "array" ? resolve(resolved.items, components) : resolved;
  const props = target?.properties;
  if (!props || depth > 2) return null;
  return (
    <ul className="schema-fields">
      {Object.entries(props).map(([name, field]) => (
        <li key={name}>
          <code>{name}</code> <span className="schema-type">{schemaType(field, components)}</span>
          {field.description ? <span className="schema-desc"> — {field.description}</span> : null}
          <SchemaFields schema={field} components={components} depth={depth + 1} />
        </li>
      ))}
    </ul>
  );
}

function anchor(op: Operation): string {
  return `${op.method}-${op.path}`
    .replace(/[^a-zA-Z0-9]+/g, "-")
    .replace(/-+$/, "")
    .toLowerCase();
}

// The document only changes with a deploy: build it once per process.
let builtDocument: OpenApiDocument | undefined;

export default async function DocsPage() {
  const EXAMPLES = await examples();
  // Our own builder's output, read through the subset of OpenAPI this page renders.
  const doc = (builtDocument ??= buildOpenApiDocument() as unknown as OpenApiDocument);
  const components = doc.components?.schemas ?? {};
  const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
  const tags: string[] = doc.tags.map((t) => t.name).filter((t) => operations.some((o) => o.op.tags?.includes(t)));
  return (
    <div className="docs">
      <div className="page-title">
        <h1>API reference</h1>
        <p className="lede">{doc.info.description}</p>
        <p>
          Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI {doc.openapi}, version {doc.info.version}).
        </p>
      </div>
      <section className="panel" aria-labelledby="auth-title">
        <h2 id="auth-title">Authentication</h2>
        <p>
          Every <code>/api/predmkt</code> and <code>/api/oracle</code> request needs credentials: an API key as{" "}
          <code>Authorization: Bearer pmk_…</code> (or <code>?api_key=</code>), or a short-lived JWT as <code>?token=</code>. Keys are
          issued by the operator; browsers exchange theirs at <code>POST /api/auth/token</code> so the key never ships to a page. The
          &quot;Send request&quot; buttons below use this dashboard&apos;s own short-lived token.
        </p>
        <pre className="json">{`curl -H "Authorization: Bearer pmk_…" "$BASE/api/predmkt/events?order=volume&limit=5"
curl -X POST -H "Authorization: Bearer pmk_…" -H "Content-Type: application/json" \\
     -d '{"ttl_seconds": 900}' "$BASE/api/auth/token"`}</pre>
      </section>
      <section className="panel" id="getting-a-key" aria-labelledby="getting-a-key-title">
        <h2 id="getting-a-key-title">Getting a key, limits and usage</h2>
        <p>
          Keys are issued by the operator on request: fill in the form on <Link href="/api-access">API access</Link> (or{" "}
          <code>POST /api/auth/key-requests</code> from a script) with your use case and expected volume. You get a <code>kr_…</code>{" "}
          reference at once and the key by email once the request is approved; the key is shown once, so store it.
        </p>
        <TierTable caption="Requests per key over a sliding 60-second window; beyond it the API answers 429 with Retry-After." />
        <p>
          <code>GET /api/auth/usage</code> (with your key, or a token made from it) answers your tier, limit, this minute&apos;s count and
          the last 30 days per endpoint and status class (2xx, 4xx, 429, 5xx). A key may carry an expiry; past it the API answers 401{" "}
          <code>key_expired</code>. When the operator rotates a key you receive its successor, and the old key keeps working for a grace
          period: its responses carry <code>Deprecation</code> and <code>Sunset</code> headers naming when it stops, after which it answers
          401 <code>key_rotated</code>.
        </p>
        <pre className="json">{`curl -X POST "$BASE/api/auth/key-requests" -H "Content-Type: application/json" -d '{"name": "Acme", "email": "dev@acme.example",
  "use_case": "Nightly research on market moves", "requests_per_minute": 30, "requests_per_day": 20000, "desired_tier": "starter"}'
curl -H "Authorization: Bearer pmk_…" "$BASE/api/auth/usage"`}</pre>
      </section>
      <div className="docs-layout">
        <nav className="docs-toc" aria-label="Operations">
          {tags.map((tag) => (
            <div key={tag}>
              <h2 className="toc-tag">{tag}</h2>
              <ul>
                {operations
                  .filter((o) => o.op.tags?.includes(tag))
                  .map((o) => (
                    <li key={anchor(o)}>
                      <a href={`#${anchor(o)}`}>
                        <span className={`method method-${o.method.toLowerCase()}`}>{o.method}</span> {o.path}
                      </a>
                    </li>
                  ))}
              </ul>
            </div>
          ))}
          <h2 className="toc-tag">
            <a href="#errors">Errors</a>
          </h2>
        </nav>
        <div className="docs-ops">
          {operations.map((o) => {
            const params = o.op.parameters ?? [];
            const keyed = (o.op.security ?? []).length > 0;
            const tryParams: TryParam[] = params.map((p) => ({
              name: p.name,
              in: p.in,
              required: !!p.required,
              example: EXAMPLES[p.name] ?? (p.schema?.default !== undefined ? String(p.schema.default) : ""),
              enumValues: p.schema?.enum?.map(String),
            }));
            const ok = o.op.responses?.["200"]?.content?.["application/json"]?.schema;
            return (
              <article key={anchor(o)} id={anchor(o)} className="panel operation" data-testid="operation">
                <h3>
                  <span className={`method method-${o.method.toLowerCase()}`}>{o.method}</span> <code>{o.path}</code>
                </h3>
                <p className="op-summary">
                  {o.op.summary} {keyed ? <span className="badge">key or token</span> : <span className="badge badge-buy">public</span>}
                </p>
                {o.op.description ? <p className="op-desc">{o.op.description}</p> : null}
                {params.length ? (
                  <div className="table-wrap">
                    <table className="data compact">
                      <caption>Parameters</caption>
                      <thead>
                        <tr>
                          <th scope="col">Name</th>
                          <th scope="col">In</th>
                          <th scope="col">Type</th>
                          <th scope="col">Default</th>
                          <th scope="col">Description</th>
                        </tr>
                      </thead>
                      <tbody>
                        {params.map((p) => (
                          <tr key={`${p.in}-${p.name}`}>
                            <td>
                              <code>{p.name}</code>
                              {p.required ? <span className="required"> required</span> : null}
                            </td>
                            <td>{p.in}</td>
                            <td>{schemaType(p.schema, components)}</td>
                            <td>{p.schema?.default !== undefined ? <code>{String(p.schema.default)}</code> : "–"}</td>
                            <td>{p.description ?? ""}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                ) : null}
                <details>
                  <summary>Responses</summary>
                  <ul className="responses">
                    {Object.entries(o.op.responses ?? {}).map(([status, r]) => (
                      <li key={status}>
                        <span className={`badge ${status.startsWith("2") ? "badge-buy" : "badge-sell"}`}>{status}</span> {r.description}
                      </li>
                    ))}
                  </ul>
                  {ok ? (
                    <>
                      <h4>200 body</h4>
                      <SchemaFields schema={ok} components={components} />
                    </>
                  ) : null}
                </details>
                {o.method === "GET" ? (
                  <details className="try-details">
                    <summary>Try it</summary>
                    <TryIt path={o.path} keyed={keyed} params={tryParams} />
                  </details>
                ) : (
                  <p className="hint">Needs your API key, so it cannot be tried from this page; see the curl example above.</p>
                )}
              </article>
            );
          })}
          <section id="errors" className="panel" aria-labelledby="errors-title">
            <h2 id="errors-title">Errors</h2>
            <p>
              Errors are RFC 9457 <code>application/problem+json</code> with <code>type</code>, <code>title</code>, <code>status</code>,{" "}
              <code>detail</code>, <code>code</code> and <code>request_id</code>; bad parameters add <code>errors[]</code> naming each one.
            </p>
            <div className="table-wrap">
              <table className="data compact">
                <thead>
                  <tr>
                    <th scope="col">Code</th>
                    <th scope="col" className="num">
                      Status
                    </th>
                    <th scope="col">Title</th>
                  </tr>
                </thead>
                <tbody>
                  {Object.entries(ERROR_CODES).map(([code, e]) => (
                    <tr key={code} id={`error-${code}`}>
                      <td>
                        <code>{code}</code>
                      </td>
                      <td className="num">{e.status}</td>
                      <td>{e.title}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        </div>
      </div>
    </div>
  );
}
