// Finding 1: the client address was whatever the client said, and equivalent spellings of one address counted as
// different clients. These pin the resolution rules per TRUST_PROXY setting and the normalisation.
import { describe, expect, it } from "vitest";
import { normaliseAddress, resolveClientAddress, UNKNOWN_ADDRESS } from "@/lib/auth/client-address";
import { loadEnv } from "@/lib/env";

const trust = (value?: string) => loadEnv({ TRUST_PROXY: value, DATA_DIR: ".data/test" }).TRUST_PROXY;
const headers = (init: Record<string, string> = {}) => new Headers(init);

describe("address normalisation", () => {
  it("IPv4-mapped IPv6, ports and brackets all name the same IPv4 client", () => {
    for (const spelling of ["1.2.3.4", "::ffff:1.2.3.4", "1.2.3.4:5555", "[::ffff:1.2.3.4]:443", " 1.2.3.4 ", "::FFFF:1.2.3.4"]) {
      expect(normaliseAddress(spelling), spelling).toBe("1.2.3.4");
    }
  });

  it("IPv6 addresses are budgeted per /64", () => {
    const a = normaliseAddress("2001:db8:1:2::1");
    expect(a).toBe("2001:db8:1:2::/64");
    expect(normaliseAddress("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe(a);
    expect(normaliseAddress("[2001:db8:1:2:abcd::9]:8080")).toBe(a);
    expect(normaliseAddress("2001:db8:1:3::1")).not.toBe(a);
  });

  it("garbage is not an address", () => {
    for (const junk of ["", "unknown", "1", "0x7f.1", "1.2.3", "999.1.1.1", "<script>", "1.2.3.4, 5.6.7.8", "a".repeat(100)]) {
      expect(normaliseAddress(junk), junk).toBeNull();
    }
  });
});

describe("resolving the client under TRUST_PROXY", () => {
  const forged = headers({ "x-forwarded-for": "203.0.113.77", "x-real-ip": "203.0.113.78", "x-vercel-forwarded-for": "203.0.113.79" });

  it("none (the default): the TCP peer, whatever the client sends", () => {
    expect(resolveClientAddress(forged, "::ffff:127.0.0.2", trust())).toBe("127.0.0.2");
    expect(resolveClientAddress(forged, "127.0.0.2", trust("none"))).toBe("127.0.0.2");
    // No verified peer (a plain `next start`): one shared bucket, never the client's claim.
    expect(resolveClientAddress(forged, null, trust())).toBe(UNKNOWN_ADDRESS);
  });

  it("a hop count believes that many proxies, counted from the peer", () => {
    const h = headers({ "x-forwarded-for": "198.51.100.1, 203.0.113.5, 10.0.0.2" });
    expect(resolveClientAddress(h, "10.0.0.1", trust("1"))).toBe("10.0.0.2");
    expect(resolveClientAddress(h, "10.0.0.1", trust("2"))).toBe("203.0.113.5");
    // A chain shorter than promised: the leftmost entry, which the first proxy wrote.
    expect(resolveClientAddress(headers({ "x-forwarded-for": "203.0.113.5" }), "10.0.0.1", trust("3"))).toBe("203.0.113.5");
    expect(resolveClientAddress(headers(), "10.0.0.1", trust("1"))).toBe("10.0.0.1");
  });

  it("a CIDR list walks left past trusted proxies only; what a client prepends is never reached", () => {
    const cloudflareAndNginx = trust("173.245.48.0/20, 10.0.0.0/8");
    const h = headers({ "x-forwarded-for": "6.6.6.6, 198.51.100.9, 173.245.48.7" });
    expect(resolveClientAddress(h, "10.0.0.3", cloudflareAndNginx)).toBe("198.51.100.9");
    // The peer itself is untrusted: its forwarding header is ignored.
    expect(resolveClientAddress(h, "192.0.2.1", cloudflareAndNginx)).toBe("192.0.2.1");
    expect(resolveClientAddress(headers({ "x-forwarded-for": "[::ffff:198.51.100.9]:1234" }), "10.1.1.1", cloudflareAndNginx)).toBe(
      "198.51.100.9",
    );
  });

  it("vercel: the edge's own header", () => {
    expect(resolveClientAddress(forged, "10.0.0.1", trust("vercel"))).toBe("203.0.113.79");
    expect(resolveClientAddress(headers({ "x-forwarded-for": "203.0.113.5" }), null, trust("vercel"))).toBe("203.0.113.5");
  });

  it("a bad TRUST_PROXY stops the start with a message naming it", () => {
    expect(() => trust("10.0.0.0/8, not-an-address")).toThrow(/TRUST_PROXY: "not-an-address" is not an address or CIDR/);
  });
});
