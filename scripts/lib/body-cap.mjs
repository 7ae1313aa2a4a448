import { randomUUID } from "node:crypto";
// @ts-check
// The request-body cap of the production entry (scripts/server.mjs), enforced while the body streams in. Next buffers
// a request's whole body before the gateway (proxy.ts) sees it, so a chunked upload paced slowly was read to its end
// before the gateway could answer 413. Here every chunk is counted as the HTTP parser hands it over (the parser calls
// the request's own `push`): past the cap the 413 goes out at once and the connection is closed, without reading on.

/**
 * @param {import("node:http").IncomingMessage} request
 * @param {import("node:http").ServerResponse} response
 * @param {number} maxBytes
 * @returns {boolean} false when the request was already answered (a declared length over the cap)
 */
const LINGER_MS = 1000;

export function capRequestBody(request, response, maxBytes) {
  const refuse = () => {
    const requestId = randomUUID();
    // Whatever the app still tries to write after this lands on an ended response: swallow it, never crash.
    response.on("error", () => undefined);
    if (!response.headersSent) {
      const body = JSON.stringify({
        type: "about:blank",
        title: "Payload too large",
        status: 413,
        detail: `Request body exceeds ${maxBytes} bytes.`,
        code: "payload_too_large",
        request_id: requestId,
      });
      response.writeHead(413, {
        "X-Request-Id": requestId,
        "Content-Type": "application/problem+json",
        "Content-Length": Buffer.byteLength(body),
        Connection: "close",
      });
      // The connection is not reused (`Connection: close`); the socket is destroyed at the latest LINGER_MS after the
      // answer, so a client still sending has time to read the 413.
      response.end(body, () => setTimeout(() => request.socket.destroy(), LINGER_MS).unref());
    } else {
      request.socket.destroy();
    }
  };
  const declared = Number(request.headers["content-length"] ?? "0");
  if (declared > maxBytes) {
    refuse();
    return false;
  }
  let size = 0;
  let refused = false;
  const push = request.push.bind(request);
  /** @type {(chunk: any, encoding?: BufferEncoding) => boolean} */
  request.push = (chunk, encoding) => {
    if (refused) return false;
    if (chunk !== null && chunk !== undefined) {
      size += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
      if (size > maxBytes) {
        refused = true;
        refuse();
        return false;
      }
    }
    return push(chunk, encoding);
  };
  return true;
}

/** MAX_BODY_BYTES as lib/env.ts reads it (default 16 KiB, 256 B – 1 MiB); the launcher reads it before Next does. */
export function maxBodyBytes(raw = process.env.MAX_BODY_BYTES) {
  const value = raw === undefined || raw.trim() === "" ? 16 * 1024 : Number(raw);
  return Number.isInteger(value) && value >= 256 && value <= 1024 * 1024 ? value : 16 * 1024;
}
