// The production entry's body cap (scripts/lib/body-cap.mjs): a body is counted while it streams and answered 413 at
// the cap (408 when it does not arrive in time), before the handler (Next) ever sees it; the refused connection is
// closed lingering, so a client still sending reads its answer and a keep-alive client never reuses it.
import { createServer, request as httpRequest, Agent, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES, problemBody as apiProblemBody } from "@/lib/api/errors";
import { apiSecurityHeaders } from "@/lib/security/headers";
import { parseAnswer, stubbornUpload } from "@/tests/helpers/upload";
import { bodyTimeoutMs, capBodies, LINGER, maxBodyBytes, problemBody, REFUSAL_HEADERS } from "@/scripts/lib/body-cap.mjs";

const CAP = 16 * 1024;
const TIMEOUT_MS = 400;
let server: Server;
let port: number;
let handled = 0;
const refusals: Record<string, unknown>[] = [];

beforeAll(async () => {
  server = createServer();
  // Stands for Next: reads the whole body, then answers.
  capBodies(
    server,
    (request, response) => {
      handled++;
      const chunks: Buffer[] = [];
      request.on("data", (c: Buffer) => chunks.push(c));
      request.on("end", () => response.end(`read ${Buffer.concat(chunks).length}`));
    },
    {
      maxBytes: CAP,
      timeoutMs: TIMEOUT_MS,
      linger: { maxMs: 3_000, idleMs: 500, maxBytes: 64 * 1024 * 1024 },
      onRefused: (f) => refusals.push(f),
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  ms: number;
  /** A client-side error seen before the answer was complete (a reset that erased it). */
  errorBeforeAnswer?: string;
}

/**
 * Sends `chunks` (each after `everyMs`, or all at once) and keeps sending after the answer arrives unless `stopOnAnswer`:
 * the worst client, one that writes its whole body before it looks at what came back.
 */
function upload(
  chunks: Buffer[],
  {
    everyMs = 0,
    headers = {},
    stopOnAnswer = false,
    agent,
  }: { everyMs?: number; headers?: Record<string, string>; stopOnAnswer?: boolean; agent?: Agent } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let answered = false;
    const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/api/auth/token", headers, agent }, (res) => {
      answered = true;
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, ms: performance.now() - started }));
      res.on("error", reject);
    });
    req.on("error", (error) => {
      if (!answered) resolve({ status: 0, headers: {}, body: "", ms: performance.now() - started, errorBeforeAnswer: String(error) });
    });
    const queue = [...chunks];
    const pump = () => {
      if (stopOnAnswer && answered) return;
      const chunk = queue.shift();
      if (!chunk) return void req.end();
      if (everyMs) {
        req.write(chunk);
        setTimeout(pump, everyMs);
      } else if (req.write(chunk)) setImmediate(pump);
      else req.once("drain", pump);
    };
    pump();
  });
}

const megabytes = (n: number, chunk = 64 * 1024) =>
  Array.from({ length: Math.ceil((n * 1024 * 1024) / chunk) }, () => Buffer.alloc(chunk, 97));

function expectRefusal(answer: Answer, status: number, code: string) {
  expect(answer.errorBeforeAnswer).toBeUndefined();
  expect(answer.status).toBe(status);
  expect(answer.headers.connection).toBe("close");
  const problem = JSON.parse(answer.body);
  expect(problem).toMatchObject({ status, code, type: `/docs#error-${code}` });
  expect(problem.request_id).toBe(answer.headers["x-request-id"]);
  expect(answer.headers["content-type"]).toBe("application/problem+json");
}

describe("request body cap while streaming", () => {
  it("a paced 2 MB chunked upload gets its 413 at the cap, long before it would have finished", async () => {
    const before = handled;
    // 2 MB in 8 KiB chunks every 20 ms would take about 5 s; the cap (16 KiB) is passed at the third chunk.
    const result = await upload(megabytes(2, 8 * 1024), { everyMs: 20 });
    expectRefusal(result, 413, "payload_too_large");
    expect(result.ms).toBeLessThan(2_000);
    expect(handled).toBe(before);
    expect(refusals.at(-1)).toMatchObject({ code: "payload_too_large", request_id: result.headers["x-request-id"] });
  });

  it("a declared length over the cap is refused before any byte is read; a body under it is handed over whole", async () => {
    const before = handled;
    const declared = await upload([Buffer.alloc(1024)], { headers: { "content-length": String(CAP + 1) }, stopOnAnswer: true });
    expectRefusal(declared, 413, "payload_too_large");
    expect(
      await upload(
        Array.from({ length: 4 }, () => Buffer.alloc(1024, 98)),
        { everyMs: 5 },
      ),
    ).toMatchObject({ status: 200, body: "read 4096" });
    expect(await upload([Buffer.alloc(CAP, 99)], { headers: { "content-length": String(CAP) } })).toMatchObject({
      status: 200,
      body: `read ${CAP}`,
    });
    expect(handled).toBe(before + 2);
  });

  it("a client still sending a 50 MB body, reading nothing until it has sent it all, reads the 413", async () => {
    for (const chunked of [false, true]) {
      const result = await stubbornUpload(port, { bytes: 50 * 1024 * 1024, chunked, path: "/" });
      expect(result.error, `chunked: ${chunked}`).toBeUndefined();
      expect(result.bytesWritten).toBe(50 * 1024 * 1024);
      expect(result.status).toBe(413);
      const { headers, body } = parseAnswer(result.received);
      expect(headers.connection).toBe("close");
      expect(body).toMatchObject({ code: "payload_too_large", request_id: headers["x-request-id"] });
    }
  }, 60_000);

  it("so does one using Node's client, declared or chunked, every time", async () => {
    for (let i = 0; i < 3; i++) {
      expectRefusal(await upload(megabytes(50)), 413, "payload_too_large");
      const body = Buffer.alloc(50 * 1024 * 1024, 97);
      expectRefusal(await upload([body], { headers: { "content-length": String(body.length) } }), 413, "payload_too_large");
    }
  }, 60_000);

  it("Expect: 100-continue over the cap: 413 and no 100 Continue, so the body is never sent", async () => {
    const informational: number[] = [];
    const answer = await new Promise<Answer>((resolve, reject) => {
      const req = httpRequest({
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/",
        headers: { expect: "100-continue", "content-length": String(10 * 1024 * 1024) },
      });
      req.on("information", (info) => informational.push(info.statusCode));
      req.on("continue", () => req.end(Buffer.alloc(10 * 1024 * 1024)));
      req.on("response", (res) => {
        let body = "";
        res.on("data", (d: Buffer) => (body += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, ms: 0 }));
      });
      req.on("error", reject);
      req.flushHeaders();
    });
    expectRefusal(answer, 413, "payload_too_large");
    expect(informational).toEqual([]);
  });

  it("a slow-loris body under the cap is cut at the deadline with a 408", async () => {
    const before = handled;
    // 1 byte every 50 ms would take 10 s for 200 bytes; the deadline is TIMEOUT_MS.
    const result = await upload(
      Array.from({ length: 200 }, () => Buffer.from("x")),
      { everyMs: 50 },
    );
    expectRefusal(result, 408, "request_timeout");
    expect(result.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(result.ms).toBeLessThan(TIMEOUT_MS + 1_500);
    expect(handled).toBe(before);
  });
  it("a client that goes away mid-body is forgotten: nothing handled, nothing thrown, the next request served", async () => {
    const before = handled;
    const socket = net.connect(port, "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    socket.write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n0123456789");
    await new Promise((resolve) => setTimeout(resolve, 20));
    socket.resetAndDestroy();
    expect(await upload([Buffer.from("ok")])).toMatchObject({ status: 200, body: "read 2" });
    expect(handled).toBe(before + 1);
  });
});

describe("the refused connection", () => {
  it("keep-alive clients never get their next request on it: a pooled agent and fetch both carry on", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let round = 0; round < 5; round++) {
        expectRefusal(await upload(megabytes(1), { agent }), 413, "payload_too_large");
        for (let i = 0; i < 5; i++) {
          const next = await upload([Buffer.from("ok")], { agent });
          expect(next).toMatchObject({ status: 200, body: "read 2" });
        }
      }
    } finally {
      agent.destroy();
    }
    for (let round = 0; round < 5; round++) {
      const refused = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: Buffer.alloc(CAP * 4) });
      expect(refused.status).toBe(413);
      expect(refused.headers.get("connection")).toBe("close");
      await refused.text();
      const ok = await Promise.all(Array.from({ length: 5 }, () => fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "ok" })));
      expect(await Promise.all(ok.map((r) => r.text()))).toEqual(Array(5).fill("read 2"));
    }
  }, 60_000);

  it("is drained for a bounded time: a client that never stops sending is closed after the linger's limits", async () => {
    // Half-open allowed: our FIN does not end the client's side, it goes on sending.
    const socket = net.connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    let received = "";
    socket.on("data", (d) => (received += d.toString()));
    const closed = new Promise<number>((resolve) => {
      socket.on("error", () => undefined);
      socket.once("close", () => resolve(performance.now()));
    });
    socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${1024 * 1024 * 1024}\r\n\r\n`);
    const started = performance.now();
    // A byte every 100 ms: never quiet for the idle limit, so the total limit (3 s here) closes it.
    const drip = setInterval(() => socket.writable && socket.write("x"), 100);
    const at = await closed;
    clearInterval(drip);
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toMatch(/\r\nconnection: close\r\n/i);
    expect(at - started).toBeGreaterThanOrEqual(2_900);
    expect(at - started).toBeLessThan(6_000);
  });
});

describe("what the launcher writes by itself", () => {
  it("answers in the API's problem shape, with the API's headers", () => {
    for (const code of ["payload_too_large", "request_timeout"] as const) {
      expect(problemBody(code, "d", "r")).toEqual(apiProblemBody(code, "d", "r"));
      expect(problemBody(code, "d", "r").status).toBe(ERROR_CODES[code].status);
    }
    expect(REFUSAL_HEADERS).toMatchObject(apiSecurityHeaders(false));
    expect(LINGER).toEqual({ maxMs: 10_000, idleMs: 2_000, maxBytes: 64 * 1024 * 1024 });
  });

  it("reads MAX_BODY_BYTES and BODY_TIMEOUT_MS as lib/env.ts does", () => {
    expect(maxBodyBytes(undefined)).toBe(16 * 1024);
    expect(maxBodyBytes("2048")).toBe(2048);
    expect(maxBodyBytes("12")).toBe(16 * 1024);
    expect(bodyTimeoutMs(undefined)).toBe(10_000);
    expect(bodyTimeoutMs("1500")).toBe(1500);
    expect(bodyTimeoutMs("50")).toBe(10_000);
  });
});
