// SSRF safety of webhook delivery, against real local receivers: a name that resolves to a loopback address is refused
// at delivery even when it resolved to a public one at creation (DNS rebinding), nothing reaches the receiver, no
// redirect is followed, the answer is capped and the attempt has a deadline.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { sendWebhook } from "@/lib/alerts/send";
import { checkTarget, forbiddenAddressReason, type Resolver, TargetRefused } from "@/lib/alerts/ssrf";

const strict = { allowLoopback: false, allowHttp: true };
const loopbackAllowed = { allowLoopback: true, allowHttp: true };
const servers: Server[] = [];

async function receiver(handle: (res: import("node:http").ServerResponse) => void): Promise<{ port: number; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    req.resume();
    handle(res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, hits: () => hits };
}

afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

const resolvingTo =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

describe("webhook target checks", () => {
  it("classifies addresses: only public unicast passes", () => {
    for (const address of [
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "127.0.0.1",
      "::1",
      "169.254.169.254",
      "fd00:ec2::254",
      "fe80::1",
      "224.0.0.1",
      "ff02::1",
      "100.100.100.200",
      "0.0.0.0",
      "::ffff:10.0.0.1",
      "255.255.255.255",
    ])
      expect(forbiddenAddressReason(address, strict), address).not.toBeNull();
    for (const address of ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "8.8.8.8"])
      expect(forbiddenAddressReason(address, strict), address).toBeNull();
    expect(forbiddenAddressReason("127.0.0.1", loopbackAllowed)).toBeNull();
    expect(forbiddenAddressReason("10.0.0.1", loopbackAllowed)).not.toBeNull();
  });

  it("refuses at creation a name that resolves to a private address, even one of several", async () => {
    await expect(checkTarget("https://hooks.example.com/x", strict, resolvingTo("10.0.0.8"))).rejects.toThrow(TargetRefused);
    await expect(checkTarget("https://hooks.example.com/x", strict, resolvingTo("93.184.215.14", "192.168.0.2"))).rejects.toThrow(
      /private/,
    );
    await expect(checkTarget("https://hooks.example.com/x", strict, resolvingTo("93.184.215.14"))).resolves.toMatchObject({
      addresses: ["93.184.215.14"],
    });
  });

  it("refuses at delivery a rebinding name that now resolves to loopback, and nothing reaches the receiver", async () => {
    const target = await receiver((res) => res.end("ok"));
    const url = `http://rebind.example.com:${target.port}/hook`;
    // At creation the name resolved to a public address...
    await expect(checkTarget(url, strict, resolvingTo("93.184.215.14"))).resolves.toBeTruthy();
    // ...at delivery it resolves to the receiver on loopback: refused before any byte is sent.
    const result = await sendWebhook(url, {}, "{}", { policy: strict, resolve: resolvingTo("127.0.0.1") });
    expect(result.ok).toBe(false);
    expect(result.status).toBeNull();
    expect(result.error).toMatch(/target refused.*loopback/);
    expect(target.hits()).toBe(0);
    // A literal loopback address is refused the same way.
    const literal = await sendWebhook(`http://127.0.0.1:${target.port}/hook`, {}, "{}", { policy: strict });
    expect(literal.error).toMatch(/target refused/);
    expect(target.hits()).toBe(0);
    // The test-only flag lets the same receiver be reached (the path works; only the check stopped it).
    const allowed = await sendWebhook(url, {}, "{}", { policy: loopbackAllowed, resolve: resolvingTo("127.0.0.1") });
    expect(allowed).toMatchObject({ ok: true, status: 200 });
    expect(target.hits()).toBe(1);
  });

  it("follows no redirect, caps the answer, and gives up at the deadline", async () => {
    const elsewhere = await receiver((res) => res.end("moved here"));
    const redirecting = await receiver((res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${elsewhere.port}/` });
      res.end();
    });
    const redirected = await sendWebhook(`http://127.0.0.1:${redirecting.port}/`, {}, "{}", { policy: loopbackAllowed });
    expect(redirected).toMatchObject({ ok: false, status: 302 });
    expect(elsewhere.hits()).toBe(0);

    const huge = await receiver((res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 97);
      const write = () => {
        while (res.write(chunk));
        res.once("drain", write);
      };
      write();
    });
    const capped = await sendWebhook(`http://127.0.0.1:${huge.port}/`, {}, "{}", { policy: loopbackAllowed, timeoutMs: 5_000 });
    expect(capped).toMatchObject({ ok: true, status: 200 });
    expect(capped.durationMs).toBeLessThan(5_000);

    const silent = await receiver(() => undefined);
    const timedOut = await sendWebhook(`http://127.0.0.1:${silent.port}/`, {}, "{}", { policy: loopbackAllowed, timeoutMs: 300 });
    expect(timedOut).toMatchObject({ ok: false, status: null });
    expect(timedOut.error).toMatch(/no answer within 300 ms/);
  });

  it("refuses http unless the development flag allows it", async () => {
    await expect(checkTarget("http://93.184.215.14/", { allowLoopback: false, allowHttp: false })).rejects.toThrow(/https/);
    const result = await sendWebhook("http://93.184.215.14/", {}, "{}", { policy: { allowLoopback: false, allowHttp: false } });
    expect(result.error).toMatch(/not https/);
  });
});
