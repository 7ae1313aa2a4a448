// Webhook targets are user URLs, so an SSRF risk (docs/alerts.md#safety): only https (http under the development flag
// ALERTS_ALLOW_HTTP), no credentials in the URL, and every address the name resolves to must be a public unicast
// address. Checked at creation and again at each delivery against the address the socket actually connects to
// (lib/alerts/send.ts passes `guardedLookup` to the HTTP agent), so a name that later resolves elsewhere (DNS
// rebinding) is refused at delivery.
import { lookup as dnsLookup } from "node:dns";
import type { LookupAddress } from "node:dns";
import ipaddr from "ipaddr.js";
import { env } from "@/lib/env";

export interface TargetPolicy {
  /** Test-only (ALERTS_ALLOW_LOOPBACK): loopback addresses are allowed; everything else private stays refused. */
  allowLoopback: boolean;
  /** Development-only (ALERTS_ALLOW_HTTP): http:// targets are accepted. */
  allowHttp: boolean;
}

export function defaultPolicy(): TargetPolicy {
  return { allowLoopback: env.ALERTS_ALLOW_LOOPBACK, allowHttp: env.ALERTS_ALLOW_HTTP };
}

/** Resolves a host name to every address it has (injectable: tests play a rebinding resolver). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

export class TargetRefused extends Error {}

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");

/**
 * Why an address may not be a webhook target, or null when it may. Only public unicast is allowed: ipaddr.js names
 * every special-purpose range (RFC 6890: private, loopback, link-local — which holds the 169.254.169.254 cloud
 * metadata address —, carrier-grade NAT — Alibaba's 100.100.100.200 —, unique-local — AWS's fd00:ec2::254 —,
 * multicast, reserved, and the IPv6 forms that embed an IPv4 address: mapped, 6to4, Teredo, NAT64).
 */
export function forbiddenAddressReason(address: string, policy: TargetPolicy): string | null {
  if (!ipaddr.isValid(address)) return "is not an IP address";
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === "loopback" && policy.allowLoopback) return null;
  if (range !== "unicast") return `resolves to a ${range} address (${parsed.toString()})`;
  // ipaddr.js calls every IPv6 address outside its named ranges "unicast", including the deprecated IPv4-compatible
  // ::a.b.c.d (::/96, which some hosts route to IPv4) and the rest of ::/8. Only the global unicast block 2000::/3
  // (RFC 4291 §2.4) is publicly routed.
  if (parsed.kind() === "ipv6" && !(parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6))
    return `resolves to an IPv6 address outside global unicast 2000::/3 (${parsed.toString()})`;
  return null;
}

/** The host of a URL as an IP address when it is a literal one (the WHATWG parser has already normalised 0x7f.1,
 * 2130706433 and 0177.0.0.1 to 127.0.0.1, and IPv6 to its compressed form in brackets), else null. */
export function literalAddress(hostname: string): string | null {
  const host = hostname.replace(/^\[|\]$/g, "");
  return ipaddr.isValid(host) ? host : null;
}

interface CheckedTarget {
  url: URL;
  addresses: string[];
}

/** Parses and checks a target URL; throws TargetRefused with a reason a client may read. */
export async function checkTarget(
  raw: string,
  policy: TargetPolicy = defaultPolicy(),
  resolve: Resolver = systemResolver,
): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused("must be an absolute URL");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowHttp))
    throw new TargetRefused(policy.allowHttp ? "must be an https:// or http:// URL" : "must be an https:// URL");
  if (url.username || url.password) throw new TargetRefused("must not carry credentials");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const literal = literalAddress(url.hostname);
  let addresses: string[];
  if (literal) addresses = [literal];
  else {
    try {
      addresses = (await resolve(host)).map((a) => a.address);
    } catch {
      throw new TargetRefused(`host '${host}' does not resolve`);
    }
    if (!addresses.length) throw new TargetRefused(`host '${host}' does not resolve`);
  }
  for (const address of addresses) {
    const reason = forbiddenAddressReason(address, policy);
    if (reason) throw new TargetRefused(`host '${host}' ${reason}`);
  }
  return { url, addresses };
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node's http(s) agents: resolves with `resolve` and refuses the connection unless every address is
 * allowed, so the socket can only connect to an address that passed the check (no DNS rebinding between check and
 * connect: there is only one resolution).
 */
export function guardedLookup(policy: TargetPolicy, resolve: Resolver = systemResolver) {
  return (hostname: string, options: { all?: boolean } | number | undefined, callback: LookupCallback): void => {
    const all = typeof options === "object" && options !== null && options.all === true;
    const literal = literalAddress(hostname);
    const resolved: Promise<LookupAddress[]> = literal
      ? Promise.resolve([{ address: literal, family: literal.includes(":") ? 6 : 4 }])
      : resolve(hostname);
    resolved.then(
      (addresses) => {
        const bad = addresses.map((a) => forbiddenAddressReason(a.address, policy)).find((r) => r !== null);
        if (!addresses.length || bad) {
          const error: NodeJS.ErrnoException = new TargetRefused(`host '${hostname}' ${bad ?? "does not resolve"}`);
          error.code = "EALERTTARGET";
          callback(error, "", 4);
          return;
        }
        if (all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 4),
    );
  };
}
