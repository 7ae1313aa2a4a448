// SSRF, the forms and paths an attacker would try, against real local listeners that count TCP connections (not only
// requests): every spelling of a loopback, unspecified, metadata or private address is refused at creation and gets
// no connection at delivery; a name that rebinds between the check and the delivery is refused with no connection,
// over http and https alike; the socket connects to the address the guarded lookup returned (Node resolves nothing
// again); no redirect of any kind is followed. docs/alerts.md#safety.
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { sendWebhook } from "@/lib/alerts/send";
import { checkTarget, type Resolver, TargetRefused } from "@/lib/alerts/ssrf";

const strict = { allowLoopback: false, allowHttp: true };
const loopbackAllowed = { allowLoopback: true, allowHttp: true };
const PUBLIC = "93.184.215.14";
const servers: (NetServer | HttpServer)[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** A TCP listener on every loopback address (dual stack) counting connections; it never answers. */
async function tcpListener(): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const server = createNetServer((socket) => {
    connections++;
    socket.on("error", () => undefined);
    socket.destroy();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "::", resolve));
  return { port: (server.address() as AddressInfo).port, connections: () => connections };
}

/** A resolver that must not be called: literal hosts are never resolved. */
const noDns: Resolver = () => Promise.reject(new Error("DNS was consulted for a literal address"));

/** Answers `first` on the first call and `then` on every later one, counting calls (a rebinding name server). */
function rebinding(first: string[], then: string[]): Resolver & { calls: () => number } {
  let calls = 0;
  const resolve: Resolver = async () => {
    calls++;
    return (calls === 1 ? first : then).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls: () => calls });
}

// Every form the brief of #28 names, and their neighbours. The WHATWG URL parser normalises the IPv4 spellings
// (hex, octal, decimal, short) to dotted quads before the check sees them; the check then classifies the address.
const FORBIDDEN_HOSTS = [
  "127.0.0.1",
  "0x7f.1",
  "0x7f000001",
  "2130706433",
  "0177.0.0.1",
  "127.1",
  "[::1]",
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "[::127.0.0.1]", // IPv4-compatible (deprecated): outside 2000::/3
  "[64:ff9b::7f00:1]", // NAT64
  "[2002:7f00:1::]", // 6to4 of 127.0.0.1
  "0.0.0.0",
  "0",
  "[::]",
  "169.254.169.254",
  "[::ffff:169.254.169.254]",
  "[fd00::1]",
  "[fd00:ec2::254]",
  "[fe80::1]",
  "10.0.0.1",
  "172.16.0.1",
  "192.168.0.1",
  "100.100.100.200",
  "224.0.0.1",
  "255.255.255.255",
];

describe("SSRF: address forms", () => {
  it("refuses every special spelling of a forbidden address at creation, without consulting DNS", async () => {
    for (const host of FORBIDDEN_HOSTS) {
      await expect(checkTarget(`https://${host}/hook`, strict, noDns), host).rejects.toThrow(TargetRefused);
    }
    // Normalised before the check: the refusal names the dotted quad.
    await expect(checkTarget("https://0x7f.1/", strict, noDns)).rejects.toThrow(/loopback address \(127\.0\.0\.1\)/);
    await expect(checkTarget("https://2130706433/", strict, noDns)).rejects.toThrow(/loopback address \(127\.0\.0\.1\)/);
    await expect(checkTarget("https://[::ffff:127.0.0.1]/", strict, noDns)).rejects.toThrow(/loopback/);
    await expect(checkTarget("https://169.254.169.254/latest/meta-data/", strict, noDns)).rejects.toThrow(/linkLocal/);
    await expect(checkTarget("https://[fd00::1]/", strict, noDns)).rejects.toThrow(/uniqueLocal/);
    await expect(checkTarget("https://0.0.0.0/", strict, noDns)).rejects.toThrow(/unspecified/);
    // The test-only loopback flag opens loopback and nothing else: not 0.0.0.0 (which Linux connects to this host).
    await expect(checkTarget("https://0x7f.1/", loopbackAllowed, noDns)).resolves.toBeTruthy();
    for (const host of ["0.0.0.0", "[::]", "169.254.169.254", "[fd00::1]", "10.0.0.1"])
      await expect(checkTarget(`https://${host}/`, loopbackAllowed, noDns), host).rejects.toThrow(TargetRefused);
    // A name that the system resolver maps to loopback (/etc/hosts): refused like the literal.
    await expect(checkTarget("https://localhost/", strict)).rejects.toThrow(/loopback/);
    // Public addresses pass, IPv4 and IPv6.
    await expect(checkTarget(`https://${PUBLIC}/`, strict, noDns)).resolves.toBeTruthy();
    await expect(checkTarget("https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/", strict, noDns)).resolves.toBeTruthy();
  });

  it("opens no TCP connection at delivery to any spelling of a local address", async () => {
    const listener = await tcpListener();
    const localForms = ["127.0.0.1", "0x7f.1", "2130706433", "0177.0.0.1", "127.1", "[::1]", "[::ffff:127.0.0.1]", "0.0.0.0", "[::]"];
    for (const host of localForms) {
      const result = await sendWebhook(`http://${host}:${listener.port}/hook`, {}, "{}", { policy: strict, resolve: noDns });
      expect(result, host).toMatchObject({ ok: false, status: null });
      expect(result.error, host).toMatch(/^target refused/);
    }
    expect(listener.connections()).toBe(0);
    // The same listener is reachable through those spellings when loopback is allowed: the check, not the path,
    // stopped them. 0.0.0.0 stays refused under the flag.
    await sendWebhook(`http://0x7f.1:${listener.port}/hook`, {}, "{}", { policy: loopbackAllowed, timeoutMs: 2_000 });
    await sendWebhook(`http://[::ffff:127.0.0.1]:${listener.port}/hook`, {}, "{}", { policy: loopbackAllowed, timeoutMs: 2_000 });
    expect(listener.connections()).toBe(2);
    const unspecified = await sendWebhook(`http://0.0.0.0:${listener.port}/hook`, {}, "{}", { policy: loopbackAllowed });
    expect(unspecified.error).toMatch(/target refused.*unspecified/);
    expect(listener.connections()).toBe(2);
  });
});

describe("SSRF: DNS rebinding", () => {
  it("a name public at creation and loopback at delivery is refused with no connection, over http and https", async () => {
    const listener = await tcpListener();
    for (const scheme of ["http", "https"]) {
      const url = `${scheme}://rebind.invalid:${listener.port}/hook`;
      const dns = rebinding([PUBLIC], ["127.0.0.1"]);
      await expect(checkTarget(url, strict, dns)).resolves.toMatchObject({ addresses: [PUBLIC] });
      const result = await sendWebhook(url, {}, "{}", { policy: strict, resolve: dns });
      expect(result.error, scheme).toMatch(/target refused.*loopback/);
      // One resolution per attempt: what was checked is what the socket would have used.
      expect(dns.calls(), scheme).toBe(2);
    }
    // An answer with one good and one bad address is refused whole (Happy Eyeballs could try either).
    const mixed = rebinding([PUBLIC, "127.0.0.1"], [PUBLIC, "127.0.0.1"]);
    const refused = await sendWebhook(`http://mixed.invalid:${listener.port}/`, {}, "{}", { policy: strict, resolve: mixed });
    expect(refused.error).toMatch(/target refused/);
    const mappedMetadata = rebinding(["::ffff:169.254.169.254"], []);
    const metadata = await sendWebhook(`https://meta.invalid:${listener.port}/`, {}, "{}", { policy: strict, resolve: mappedMetadata });
    expect(metadata.error).toMatch(/target refused.*linkLocal/);
    expect(listener.connections()).toBe(0);
  });

  it("connects to the address the guarded lookup returned, for http and https (no second resolution)", async () => {
    const listener = await tcpListener();
    // `.invalid` never resolves in real DNS (RFC 6761): reaching the listener proves the socket used our answer.
    for (const scheme of ["http", "https"]) {
      const dns = rebinding(["127.0.0.1"], ["127.0.0.1"]);
      await sendWebhook(`${scheme}://guarded.invalid:${listener.port}/`, {}, "{}", {
        policy: loopbackAllowed,
        resolve: dns,
        timeoutMs: 2_000,
      });
      expect(dns.calls(), scheme).toBe(1);
    }
    expect(listener.connections()).toBe(2);
  });
});

describe("SSRF: redirects", () => {
  it("follows no redirect of any status", async () => {
    let elsewhereHits = 0;
    const elsewhere = createHttpServer((req, res) => {
      elsewhereHits++;
      res.end("moved here");
    });
    servers.push(elsewhere);
    await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
    const location = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`;
    for (const status of [301, 302, 303, 307, 308]) {
      const redirecting = createHttpServer((req, res) => {
        req.resume();
        res.writeHead(status, { location });
        res.end();
      });
      servers.push(redirecting);
      await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
      const port = (redirecting.address() as AddressInfo).port;
      const result = await sendWebhook(`http://127.0.0.1:${port}/`, {}, "{}", { policy: loopbackAllowed });
      expect(result, String(status)).toMatchObject({ ok: false, status, error: `answered HTTP ${status}` });
    }
    expect(elsewhereHits).toBe(0);
  });
});
