"use client";
// "Try it" for one GET operation: fills the path and query from a form and calls the API from this browser with the
// dashboard's short-lived token (keyed operations) or without credentials (public ones).
import { useId, useState } from "react";
import { buildUrl } from "@/lib/queries/fetcher";
import { getDashboardToken } from "@/lib/queries/token";

export interface TryParam {
  name: string;
  in: "path" | "query";
  required: boolean;
  example: string;
  enumValues?: string[];
}

const SHOWN_HEADERS = ["x-api-tier", "x-ratelimit-limit", "x-ratelimit-remaining", "retry-after", "cache-control", "x-request-id"];
const MAX_BODY_CHARS = 30_000;

export function TryIt({ path, keyed, params }: { path: string; keyed: boolean; params: TryParam[] }) {
  const id = useId();
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(params.map((p) => [p.name, p.example])));
  const [result, setResult] = useState<{ status: number; ms: number; headers: [string, string][]; body: string; url: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function send(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      let resolved = path;
      for (const p of params.filter((p) => p.in === "path"))
        resolved = resolved.replace(`{${p.name}}`, encodeURIComponent(values[p.name] ?? ""));
      const query = Object.fromEntries(params.filter((p) => p.in === "query").map((p) => [p.name, values[p.name]]));
      const token = keyed ? await getDashboardToken() : undefined;
      const url = buildUrl(resolved, query, token);
      const started = performance.now();
      const response = await fetch(url, { cache: "no-store" });
      const text = await response.text();
      let body = text;
      try {
        body = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // not JSON: show as is
      }
      setResult({
        status: response.status,
        ms: Math.round(performance.now() - started),
        headers: SHOWN_HEADERS.flatMap((h) => (response.headers.get(h) ? [[h, response.headers.get(h)!] as [string, string]] : [])),
        body: body.length > MAX_BODY_CHARS ? `${body.slice(0, MAX_BODY_CHARS)}\n… (truncated)` : body,
        // The token is a secret of this tab: show where it goes, not its value.
        url: buildUrl(resolved, query, token ? "<token>" : undefined),
      });
    } catch {
      setFailure("The request could not be sent (offline?).");
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="try-it" onSubmit={(event) => void send(event)} aria-label={`Try GET ${path}`}>
      {params.length ? (
        <div className="controls">
          {params.map((p) => (
            <label key={p.name} className="field">
              <span>
                {p.name}
                {p.required ? " *" : ""} <small>({p.in})</small>
              </span>
              {p.enumValues ? (
                <select value={values[p.name] ?? ""} onChange={(e) => setValues({ ...values, [p.name]: e.target.value })} name={p.name}>
                  {p.required ? null : <option value="">(default)</option>}
                  {p.enumValues.map((v) => (
                    <option key={v} value={v}>
                      {v}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  name={p.name}
                  value={values[p.name] ?? ""}
                  required={p.required}
                  onChange={(e) => setValues({ ...values, [p.name]: e.target.value })}
                />
              )}
            </label>
          ))}
        </div>
      ) : null}
      <button type="submit" className="button" disabled={busy} aria-describedby={`${id}-note`}>
        {busy ? "Sending…" : "Send request"}
      </button>
      <span id={`${id}-note`} className="hint">
        {keyed ? " Sent with this page's short-lived token; your own apps use an API key." : " No credentials needed."}
      </span>
      {failure ? <p className="notice">{failure}</p> : null}
      {result ? (
        <div className="try-result" data-testid="try-result" aria-live="polite">
          <p>
            <span className={`badge ${result.status < 400 ? "badge-buy" : "badge-sell"}`}>{result.status}</span> in {result.ms} ms ·{" "}
            <code>GET {result.url}</code>
          </p>
          {result.headers.length ? (
            <ul className="header-list">
              {result.headers.map(([k, v]) => (
                <li key={k}>
                  <code>
                    {k}: {v}
                  </code>
                </li>
              ))}
            </ul>
          ) : null}
          <pre className="json">{result.body}</pre>
        </div>
      ) : null}
    </form>
  );
}
