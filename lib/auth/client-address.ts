// Who the client is, for every per-address budget (guessing, dashboard slice, pages, cron, token minting).
//
// The address is only as good as the hop that reported it. With nothing trusted (TRUST_PROXY=none, the default) it is
// the TCP peer of this process, which the custom server entry (scripts/server.mjs) hands over in an internal header
// that only this process can produce; a client-sent `X-Forwarded-For` is ignored. Behind a proxy, TRUST_PROXY says
// which hops may report the client: `vercel` (Vercel's edge overwrites the forwarding headers), a hop count (nginx in
// front: 1) or a list of CIDRs (Cloudflare's published ranges plus your own proxies). See docs in SECURITY.md.
//
// Addresses are normalised so that one client cannot look like many: IPv4-mapped IPv6 becomes IPv4, ports and
// brackets are stripped, and IPv6 addresses are budgeted per /64 (the smallest block a provider hands a customer).
import { timingSafeEqual } from "node:crypto";
import ipaddr from "ipaddr.js";
import { env, type TrustProxy } from "@/lib/env";

/** Set by scripts/server.mjs from `socket.remoteAddress`; any client-sent copy is deleted before Next sees the request. */
export const PEER_HEADER = "x-predmkt-peer";
export const PEER_PROOF_HEADER = "x-predmkt-peer-proof";

/** The budget key for requests whose address cannot be established (a plain `next start` with TRUST_PROXY=none). */
export const UNKNOWN_ADDRESS = "unknown";

const globalForPeer = globalThis as unknown as { __predmktPeerProof?: string };

/** Parses one address as a client might send it: `1.2.3.4`, `1.2.3.4:5555`, `[2001:db8::1]:443`, `::ffff:1.2.3.4`. */
function parseAddress(raw: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  let value = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  value = value.replace(/%[\w.-]+$/, ""); // IPv6 zone id
  if (!ipaddr.isValid(value)) return null;
  try {
    const parsed = ipaddr.parse(value);
    if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return (parsed as ipaddr.IPv6).toIPv4Address();
    // ipaddr.isValid accepts shorthand such as "1" or "0x7f.1"; only the dotted-quad form is an address here.
    if (parsed.kind() === "ipv4" && !ipaddr.IPv4.isValidFourPartDecimal(value)) return null;
    return parsed;
  } catch {
    return null;
  }
}

/** The identifier budgets are kept under: the IPv4 address, or the IPv6 /64 network. */
function budgetKey(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  if (address.kind() === "ipv4") return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}

/** Normalises an address string to its budget key, or null when it is not an address. */
export function normaliseAddress(raw: string): string | null {
  const parsed = parseAddress(raw);
  return parsed ? budgetKey(parsed) : null;
}

function forwardedChain(headers: Headers): string[] {
  return (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
}

function inAnyRange(address: ipaddr.IPv4 | ipaddr.IPv6, ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][]): boolean {
  return ranges.some(([network, bits]) => address.kind() === network.kind() && address.match(network, bits));
}

/** The TCP peer the custom server reported, or null when the header is absent or was not set by this process. */
function verifiedPeer(headers: Headers): string | null {
  const expected = globalForPeer.__predmktPeerProof;
  const proof = headers.get(PEER_PROOF_HEADER);
  const peer = headers.get(PEER_HEADER);
  if (!expected || !proof || !peer) return null;
  const a = Buffer.from(proof);
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  return peer;
}

/**
 * The client's budget key under the given trust setting. `peer` is the TCP peer (null when unknown). Walking the
 * forwarding chain from the right, each hop is believed only while the hop that reported it is trusted.
 */
export function resolveClientAddress(headers: Headers, peer: string | null, trust: TrustProxy): string {
  if (trust.mode === "vercel") {
    // Vercel's edge overwrites these with the connecting client's address; nothing a client sends survives.
    const reported = headers.get("x-vercel-forwarded-for")?.split(",")[0] ?? headers.get("x-real-ip") ?? forwardedChain(headers)[0];
    return (reported && normaliseAddress(reported)) ?? UNKNOWN_ADDRESS;
  }
  const peerKey = peer ? normaliseAddress(peer) : null;
  if (trust.mode === "none") return peerKey ?? UNKNOWN_ADDRESS;
  if (!peer) return UNKNOWN_ADDRESS;
  const chain = [...forwardedChain(headers), peer];
  if (trust.mode === "hops") {
    // The peer is hop 0; each trusted proxy appended the address it saw. A chain shorter than promised means a
    // proxy is missing, and then the leftmost entry is what the first proxy saw.
    const index = Math.max(0, chain.length - 1 - trust.hops);
    return normaliseAddress(chain[index]) ?? UNKNOWN_ADDRESS;
  }
  for (let index = chain.length - 1; index >= 0; index--) {
    const hop = parseAddress(chain[index]);
    if (!hop) return UNKNOWN_ADDRESS; // garbage in the part of the chain our proxies wrote
    if (index === 0 || !inAnyRange(hop, trust.ranges)) return budgetKey(hop);
  }
  return UNKNOWN_ADDRESS;
}

/** Whether the request reached the first trusted hop over TLS (for HSTS). */
export function viaHttps(headers: Headers, url: URL, trust: TrustProxy): boolean {
  if (url.protocol === "https:") return true;
  if (trust.mode === "none") return false;
  return (headers.get("x-forwarded-proto") ?? "").split(",")[0].trim().toLowerCase() === "https";
}

/** The budget key of the client that sent these request headers, under this deployment's TRUST_PROXY. */
export function clientAddress(headers: Headers): string {
  return resolveClientAddress(headers, verifiedPeer(headers), env.TRUST_PROXY);
}
