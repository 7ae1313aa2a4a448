// Response headers that protect browsers, set by the gateway (proxy.ts) on every response it handles and by
// next.config.ts on static assets. Pages get a per-request nonce: Next reads it from the request's
// Content-Security-Policy header and puts it on the inline scripts it renders, so no 'unsafe-inline' script is ever
// allowed. Styles keep 'unsafe-inline' because React's `style` attributes (charts) cannot carry a nonce.
import { randomBytes } from "node:crypto";

const EMBED_PATH = /^\/embed(\/|$)/;

export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/** The page CSP. `frameAncestors` is `'none'` except on /embed/* (EMBED_FRAME_ANCESTORS). */
export function pageCsp(nonce: string, frameAncestors: string, development = false): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': scripts the nonce'd bootstrap loads (Next's chunks) are trusted; nothing else is.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join("; ");
}

/** JSON and error responses never render: nothing may load, nobody may frame them. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

export function frameAncestorsFor(pathname: string, embedAllowList: string): string {
  return EMBED_PATH.test(pathname) ? embedAllowList : "'none'";
}

/** Headers every response carries, page or API. */
function baseSecurityHeaders(https: boolean): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    // Only over HTTPS: a browser ignores it on plain HTTP, and a local demo must stay reachable over HTTP.
    ...(https ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {}),
  };
}

export function pageSecurityHeaders(pathname: string, csp: string, https: boolean): Record<string, string> {
  return {
    ...baseSecurityHeaders(https),
    "Content-Security-Policy": csp,
    // For browsers that predate frame-ancestors; embeds rely on the CSP alone.
    ...(EMBED_PATH.test(pathname) ? {} : { "X-Frame-Options": "DENY" }),
  };
}

export function apiSecurityHeaders(https: boolean): Record<string, string> {
  return { ...baseSecurityHeaders(https), "Content-Security-Policy": API_CSP, "X-Frame-Options": "DENY" };
}

/** The friendly page a browser gets when its address has rendered too many pages this minute. */
export function tooManyPagesHtml(retryAfterS: number, requestId: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${retryAfterS}"><title>Slow down a little · Predmkt</title>
<style>body{font:16px/1.5 system-ui,sans-serif;background:#0b0e14;color:#e6e6e6;display:grid;place-items:center;min-height:100vh;margin:0}
main{max-width:32rem;padding:2rem}h1{font-size:1.4rem}code{color:#9aa4b2}</style></head>
<body><main><h1>Slow down a little</h1>
<p>This address has opened a lot of pages in the last minute. The page will reload by itself in ${retryAfterS} s.</p>
<p>Need the data in bulk? The API at <a href="/docs" style="color:#7cc4ff">/docs</a> serves it with a key.</p>
<p><code>request ${requestId}</code></p></main></body></html>`;
}

/** The CSP of that page: no scripts at all. */
export const TOO_MANY_PAGES_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";
