import type { Metadata } from "next";
import { TryIt, type TryParam } from "@/components/docs/try-it";
import { ERROR_CODES } from "@/lib/api/errors";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { getDb } from "@/lib/db/client";

export const metadata: Metadata = { title: "API reference" };
// The document is built from the endpoint contracts at request time, exactly what /api/openapi.json serves.
export const dynamic = "force-dynamic";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- free-form OpenAPI JSON

interface Operation {
  method: string;
  path: string;
  op: Json;
}

/** Real identifiers for the "Try it" forms: the busiest open event and its biggest market, when sampled. */
async function examples(): Promise<Record<string, string>> {
  try {
    const db = await getDb();
    const event = await db.event.findFirst({ where: { open: true }, orderBy: [{ volume24hUsd: "desc" }, { id: "asc" }], select: { id: true, slug: true } });
    if (!event) return {};
    const market = await db.market.findFirst({ where: { eventId: event.id }, orderBy: [{ volumeUsd: "desc" }, { id: "asc" }], select: { id: true } });
    return { slug: event.slug, ...(market ? { id: market.id } : {}) };
  } catch {
    return {};
  }
}

function schemaType(schema: Json | undefined, components: Json): string {
  if (!schema) return "";
  if (schema.$ref) return String(schema.$ref).split("/").pop() ?? "";
  if (schema.enum) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(" | ");
  if (schema.anyOf) return schema.anyOf.map((s: Json) => schemaType(s, components)).join(" | ");
  if (schema.type === "array") return `${schemaType(schema.items, components)}[]`;
  const bounds = [
    schema.minimum !== undefined ? `≥ ${schema.minimum}` : "",
    schema.maximum !== undefined ? `≤ ${schema.maximum}` : "",
    schema.minLength !== undefined ? `${schema.minLength}–${schema.maxLength ?? ""} chars` : "",
  ].filter(Boolean);
  return [Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any"), ...bounds].join(", ");
}

function resolve(schema: Json | undefined, components: Json): Json | undefined {
  if (schema?.$ref) return components[String(schema.$ref).split("/").pop() ?? ""];
  return schema;
}

function SchemaFields({ schema, components, depth = 0 }: { schema: Json | undefined; components: Json; depth?: number }) {
  const resolved = resolve(schema, components);
  const target = resolved?.type === "array" ? resolve(resolved.items, components) : resolved;
  const props = target?.properties as Json | undefined;
  if (!props || depth > 2) return null;
  return (
    <ul className="schema-fields">
      {Object.entries(props).map(([name, field]) => (
        <li key={name}>
          <code>{name}</code> <span className="schema-type">{schemaType(field as Json, components)}</span>
          {(field as Json).description ? <span className="schema-desc"> — {(field as Json).description}</span> : null}
          <SchemaFields schema={field as Json} components={components} depth={depth + 1} />
        </li>
      ))}
    </ul>
  );
}

function anchor(op: Operation): string {
  return `${op.method}-${op.path}`.replace(/[^a-zA-Z0-9]+/g, "-").replace(/-+$/, "").toLowerCase();
}

// The document only changes with a deploy: build it once per process.
let builtDocument: Json | undefined;

export default async function DocsPage() {
  const EXAMPLES = await examples();
  const doc = (builtDocument ??= buildOpenApiDocument() as Json);
  const components = (doc.components?.schemas ?? {}) as Json;
  const operations: Operation[] = Object.entries(doc.paths as Json).flatMap(([path, methods]) =>
    Object.entries(methods as Json).map(([method, op]) => ({ method: method.toUpperCase(), path, op: op as Json })),
  );
  const tags: string[] = (doc.tags as { name: string }[]).map((t) => t.name).filter((t) => operations.some((o) => o.op.tags?.includes(t)));
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
            const params = (o.op.parameters ?? []) as Json[];
            const keyed = (o.op.security ?? []).length > 0;
            const tryParams: TryParam[] = params.map((p) => ({
              name: p.name,
              in: p.in,
              required: !!p.required,
              example: EXAMPLES[p.name] ?? (p.schema?.default !== undefined ? String(p.schema.default) : ""),
              enumValues: p.schema?.enum?.map(String),
            }));
            const ok = o.op.responses?.["200"]?.content?.["application/json"]?.schema as Json | undefined;
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
                    {Object.entries((o.op.responses ?? {}) as Json).map(([status, r]) => (
                      <li key={status}>
                        <span className={`badge ${status.startsWith("2") ? "badge-buy" : "badge-sell"}`}>{status}</span> {(r as Json).description}
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
