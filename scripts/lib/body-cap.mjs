// @ts-check
// The request-body cap of the production entry (scripts/server.mjs), enforced while the body streams in. Next buffers
// a request's whole body before the gateway (proxy.ts) sees it, so a chunked upload paced slowly used to be read to
// its end before the gateway could answer 413. Here a request with a body is held back from Next until its body has
// arrived: every chunk is counted as the HTTP parser hands it over (the parser calls the request's own `push`), and
// - past MAX_BODY_BYTES (or a declared Content-Length over it) the answer is 413 at once;
// - a body still incomplete BODY_TIMEOUT_MS after the headers (a slow-loris upload under the cap) is answered 408;
// - otherwise Next gets the request with its body, as if nothing had happened.
// Next never sees a refused request. A refusal closes the connection the way RFC 9112 §9.6 asks: `Connection: close`,
// the answer, then a half-close (our FIN) while whatever the client is still sending is read and discarded, and only
// then the socket is closed (a "lingering close", as nginx's lingering_close). Closing at once under a client that is
// still sending makes its kernel answer our close with a reset, which can erase the 413 before the client read it;
// answering without `Connection: close` would let a keep-alive client reuse a connection we are about to close.
import { randomUUID } from "node:crypto";

/** How long, how quietly and how much a refused connection is drained before it is closed (SECURITY.md). */
export const LINGER = { maxMs: 10_000, idleMs: 2_000, maxBytes: 64 * 1024 * 1024 };

// The answer as the API writes every error (lib/api/errors.ts problemBody/problemResponse, with the API's browser
// headers from lib/security/headers.ts apiSecurityHeaders and the gateway's CORS): the launcher is plain Node and
// cannot import them, so tests/unit/scripts/body-cap.test.ts compares the two.
const REFUSALS = {
  payload_too_large: { status: 413, title: "Payload too large" },
  request_timeout: { status: 408, title: "Request timeout" },
};
export const REFUSAL_HEADERS = {
  "Content-Type": "application/problem+json",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "X-Request-Id",
};

/**
 * @typedef {{ maxMs: number, idleMs: number, maxBytes: number }} Linger
 * @typedef {{ maxBytes: number, timeoutMs: number, linger?: Linger, onRefused?: (fields: Record<string, unknown>) => void }} BodyCapOptions
 * @typedef {(request: import("node:http").IncomingMessage, response: import("node:http").ServerResponse) => void} Handler
 */

/**
 * Serves `server`'s requests through `handler` with the body cap in front (also for `Expect: 100-continue`: a declared
 * length over the cap is refused before the client is told to send its body).
 * @param {import("node:http").Server} server
 * @param {Handler} handler
 * @param {BodyCapOptions} options
 */
export function capBodies(server, handler, options) {
  const listener = bodyCapListener(handler, options);
  server.on("request", listener);
  server.on("checkContinue", (request, response) => {
    if (declaredLength(request) <= options.maxBytes) response.writeContinue();
    listener(request, response);
  });
}

/** @param {import("node:http").IncomingMessage} request */
function declaredLength(request) {
  const declared = Number(request.headers["content-length"] ?? "0");
  return Number.isFinite(declared) ? declared : 0;
}

/**
 * @param {Handler} handler
 * @param {BodyCapOptions} options
 * @returns {Handler}
 */
export function bodyCapListener(handler, { maxBytes, timeoutMs, linger = LINGER, onRefused = logRefusal }) {
  return (request, response) => {
    const declared = declaredLength(request);
    // No body (a GET, a POST with Content-Length: 0): nothing to hold back.
    if (request.headers["transfer-encoding"] === undefined && !(declared > 0)) return handler(request, response);
    /** @type {"holding" | "passed" | "refused"} */
    let state = "holding";
    /** @type {Buffer[]} */
    const held = [];
    let size = 0;
    /** @type {NodeJS.Timeout | undefined} */
    let deadline;
    // A client that goes away mid-body makes the request emit an error that nobody listens to yet.
    const ignore = () => undefined;
    request.on("error", ignore);
    request.once("close", () => clearTimeout(deadline));
    /** @param {keyof typeof REFUSALS} code @param {string} detail */
    const refuse = (code, detail) => {
      clearTimeout(deadline);
      state = "refused";
      held.length = 0;
      request.off("error", ignore);
      refuseRequest(request, response, code, detail, linger, { bytes_received: size, declared_length: declared, onRefused });
    };
    if (declared > maxBytes) return refuse("payload_too_large", `Request body exceeds ${maxBytes} bytes.`);
    deadline = setTimeout(() => {
      if (state === "holding") refuse("request_timeout", `The request body did not arrive within ${timeoutMs} ms.`);
    }, timeoutMs);
    deadline.unref();
    /** @type {(chunk: any, encoding?: BufferEncoding) => boolean} */
    request.push = (chunk, encoding) => {
      // What arrives after a refusal is discarded (the lingering close drains it).
      if (state === "refused") return true;
      if (chunk === null) {
        clearTimeout(deadline);
        state = "passed";
        // Back to the stream's own `push`: Next reads the body it is handed now, as it would have read it.
        delete (/** @type {any} */ (request).push);
        request.off("error", ignore);
        handler(request, response);
        for (const part of held.splice(0)) request.push(part);
        return request.push(null);
      }
      const bytes = typeof chunk === "string" ? Buffer.from(chunk, encoding) : chunk;
      size += bytes.length;
      if (size > maxBytes) {
        refuse("payload_too_large", `Request body exceeds ${maxBytes} bytes.`);
        return true;
      }
      held.push(bytes);
      return true;
    };
  };
}

/**
 * @param {import("node:http").IncomingMessage} request
 * @param {import("node:http").ServerResponse} response
 * @param {keyof typeof REFUSALS} code
 * @param {string} detail
 * @param {Linger} linger
 * @param {{ bytes_received: number, declared_length: number, onRefused: (fields: Record<string, unknown>) => void }} context
 */
function refuseRequest(request, response, code, detail, linger, { onRefused, ...sizes }) {
  const requestId = randomUUID();
  const { status } = REFUSALS[code];
  const body = JSON.stringify(problemBody(code, detail, requestId));
  const socket = request.socket;
  // Node ends a `Connection: close` exchange with `socket.destroySoon()` once the answer is written: it closes as soon
  // as our FIN is out, under a client that may still be sending. This connection closes lingering instead.
  if (socket && !socket.destroyed) /** @type {any} */ (socket).destroySoon = () => lingeringClose(socket, linger);
  response.on("error", () => undefined);
  onRefused({ request_id: requestId, code, status, method: request.method, path: request.url?.split("?")[0], ...sizes });
  response.writeHead(status, {
    ...REFUSAL_HEADERS,
    "X-Request-Id": requestId,
    "Content-Length": Buffer.byteLength(body),
    Connection: "close",
  });
  response.end(body);
}

/**
 * The refusal body, the same shape as lib/api/errors.ts problemBody.
 * @param {keyof typeof REFUSALS} code
 * @param {string} detail
 * @param {string} requestId
 */
export function problemBody(code, detail, requestId) {
  const { status, title } = REFUSALS[code];
  return { type: `/docs#error-${code}`, title, status, detail, code, request_id: requestId };
}

/**
 * Half-closes (the answer, then our FIN) and keeps reading and discarding until the client closes its side, or it has
 * been quiet for `idleMs`, or `maxMs` or `maxBytes` of draining have passed; then closes.
 * @param {import("node:net").Socket} socket
 * @param {Linger} linger
 */
export function lingeringClose(socket, { maxMs, idleMs, maxBytes }) {
  const began = Date.now();
  const startBytes = socket.bytesRead;
  let seen = startBytes;
  let quietSince = began;
  socket.end();
  const check = setInterval(
    () => {
      const now = Date.now();
      const read = socket.bytesRead;
      if (read !== seen) {
        seen = read;
        quietSince = now;
      }
      if (now - began >= maxMs || now - quietSince >= idleMs || read - startBytes >= maxBytes) socket.destroy();
    },
    Math.max(10, Math.min(100, idleMs / 4)),
  );
  check.unref();
  socket.once("close", () => clearInterval(check));
}

/** @param {Record<string, unknown>} fields */
function logRefusal(fields) {
  // One JSON line, as lib/log.ts writes them: the request id in the answer finds this line.
  console.log(JSON.stringify({ level: "info", time: new Date().toISOString(), message: "request body refused", ...fields }));
}

/** MAX_BODY_BYTES as lib/env.ts reads it (default 16 KiB, 256 B – 1 MiB); the launcher reads it before Next does. */
export function maxBodyBytes(raw = process.env.MAX_BODY_BYTES) {
  return intSetting(raw, 16 * 1024, 256, 1024 * 1024);
}

/** BODY_TIMEOUT_MS as lib/env.ts reads it (default 10 s, 100 ms – 60 s). */
export function bodyTimeoutMs(raw = process.env.BODY_TIMEOUT_MS) {
  return intSetting(raw, 10_000, 100, 60_000);
}

/** @param {string | undefined} raw @param {number} fallback @param {number} min @param {number} max */
function intSetting(raw, fallback, min, max) {
  const value = raw === undefined || raw.trim() === "" ? fallback : Number(raw);
  return Number.isInteger(value) && value >= min && value <= max ? value : fallback;
}
