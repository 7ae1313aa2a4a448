// One webhook attempt (docs/alerts.md#delivery): POST the signed body to the target through an agent whose lookup
// refuses forbidden addresses (lib/alerts/ssrf.ts); a literal IP host is checked before any socket is opened; the
// connected socket's address is checked once more. No redirect is followed (a 3xx is a failed attempt), the whole
// attempt has one deadline (ALERTS_TIMEOUT_MS, 10 s), and at most RESPONSE_CAP_BYTES of the answer are read and then
// dropped: nothing of it is stored.
import http from "node:http";
import https from "node:https";
import { env } from "@/lib/env";
import {
  defaultPolicy,
  forbiddenAddressReason,
  guardedLookup,
  literalAddress,
  type Resolver,
  systemResolver,
  type TargetPolicy,
} from "./ssrf";

const RESPONSE_CAP_BYTES = 64 * 1024;

export interface SendResult {
  ok: boolean;
  /** HTTP status; null when no answer came (refused target, network error, timeout). */
  status: number | null;
  /** Why it failed, in our words (never the receiver's body). */
  error: string | null;
  durationMs: number;
}

export interface SendOptions {
  policy?: TargetPolicy;
  resolve?: Resolver;
  timeoutMs?: number;
}

export function sendWebhook(url: string, headers: Record<string, string>, body: string, options: SendOptions = {}): Promise<SendResult> {
  const policy = options.policy ?? defaultPolicy();
  const timeoutMs = options.timeoutMs ?? env.ALERTS_TIMEOUT_MS;
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    // Set once the request exists; an early refusal finishes before it.
    const deadline: { timer?: NodeJS.Timeout } = {};
    const finish = (result: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline.timer);
      resolve({ ...result, durationMs: performance.now() - started });
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      finish({ ok: false, status: null, error: "invalid target URL" });
      return;
    }
    const isHttps = target.protocol === "https:";
    if (!isHttps && !(target.protocol === "http:" && policy.allowHttp)) {
      finish({ ok: false, status: null, error: "target is not https" });
      return;
    }
    // Node opens a socket to an IP literal without calling `lookup`: check it here, so a forbidden literal gets no
    // TCP connection at all (not even one closed at once, which would tell an open port from a closed one).
    const literal = literalAddress(target.hostname);
    const literalReason = literal ? forbiddenAddressReason(literal, policy) : null;
    if (literalReason) {
      finish({ ok: false, status: null, error: `target refused: host '${target.hostname}' ${literalReason}` });
      return;
    }
    const lookup = guardedLookup(policy, options.resolve ?? systemResolver);
    const requestOptions: https.RequestOptions = {
      method: "POST",
      headers: {
        ...headers,
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(body)),
        "user-agent": "predmkt-alerts/1",
      },
      // A fresh agent per attempt: no pooled socket may carry a request to an address checked for another one.
      agent: false,
      lookup: lookup,
    };
    const request = (isHttps ? https : http).request(target, requestOptions, (response) => {
      let read = 0;
      response.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > RESPONSE_CAP_BYTES) response.destroy();
      });
      const status = response.statusCode ?? 0;
      const done = () =>
        finish({ ok: status >= 200 && status < 300, status, error: status >= 200 && status < 300 ? null : `answered HTTP ${status}` });
      response.on("end", done);
      response.on("close", done);
      response.on("error", done);
    });
    request.on("socket", (socket) => {
      socket.on("connect", () => {
        // The address actually connected to, checked again (a lookup bypassed by a literal or an agent quirk).
        const reason = socket.remoteAddress ? forbiddenAddressReason(socket.remoteAddress, policy) : "has no address";
        if (reason) {
          request.destroy();
          finish({ ok: false, status: null, error: `target refused: connected address ${reason}` });
        }
      });
    });
    request.on("error", (error: NodeJS.ErrnoException) => {
      const refused = error.code === "EALERTTARGET";
      finish({
        ok: false,
        status: null,
        error: refused ? `target refused: ${error.message}` : `network error (${error.code ?? "unknown"})`,
      });
    });
    deadline.timer = setTimeout(() => {
      request.destroy();
      finish({ ok: false, status: null, error: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    request.end(body);
  });
}
