// The production entry's body cap (scripts/lib/body-cap.mjs) answers 413 when the cap is reached, while a paced chunked
// upload is still streaming, not after the whole body was read.
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capRequestBody, maxBodyBytes } from "@/scripts/lib/body-cap.mjs";

const CAP = 16 * 1024;
let server: Server;
let port: number;
let bodiesRead = 0;

beforeAll(async () => {
  // Stands for Next: reads the whole body, then answers.
  server = createServer((request, response) => {
    if (!capRequestBody(request, response, CAP)) return;
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => {
      bodiesRead++;
      response.end(`read ${Buffer.concat(chunks).length}`);
    });
    request.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function upload(chunkBytes: number, chunks: number, everyMs: number, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; ms: number; body: string }>((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/api/auth/token", headers }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, body }));
      res.on("error", reject);
    });
    req.on("error", () => undefined); // the server closes the connection after its 413
    let sent = 0;
    const timer = setInterval(() => {
      if (sent === chunks || req.destroyed) {
        clearInterval(timer);
        if (!req.destroyed) req.end();
        return;
      }
      req.write(Buffer.alloc(chunkBytes, 97));
      sent++;
    }, everyMs);
  });
}

describe("request body cap while streaming", () => {
  it("a paced 2 MB chunked upload gets its 413 at the cap, long before it would have finished", async () => {
    // 2 MB in 8 KiB chunks every 20 ms would take about 5 s; the cap (16 KiB) is passed at the third chunk.
    const result = await upload(8 * 1024, 256, 20);
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({ code: "payload_too_large", status: 413 });
    expect(result.ms).toBeLessThan(2_000);
  });

  it("a declared length over the cap is refused before any byte is read; a body under it goes through", async () => {
    const before = bodiesRead;
    const declared = await upload(1024, 1, 1, { "content-length": String(CAP + 1) });
    expect(declared.status).toBe(413);
    const small = await upload(1024, 4, 1);
    expect(small).toMatchObject({ status: 200, body: "read 4096" });
    expect(bodiesRead).toBe(before + 1);
  });

  it("reads MAX_BODY_BYTES as lib/env.ts does", () => {
    expect(maxBodyBytes(undefined)).toBe(16 * 1024);
    expect(maxBodyBytes("2048")).toBe(2048);
    expect(maxBodyBytes("12")).toBe(16 * 1024);
  });
});
