// Concurrent streams per key, counted across instances through the rate-limit store (Upstash or Redis): each open
// stream holds a lease (a sorted-set member scored by its expiry) that its instance renews while the stream lives,
// so a crashed instance's streams stop counting once their leases lapse. Without a shared store, or when it does not
// answer in time, streams are counted in process (the same outage policy as the request limiter).
// Every dashboard visitor streams on the dashboard's one key: each client address also holds a lease in its own slice
// (STREAM_LIMIT_DASHBOARD_PER_ADDRESS), taken before the key's, so one visitor cannot take the whole key's streams —
// the stream counterpart of the per-address request slice (RATE_LIMIT_DASHBOARD_PER_IP).
import { randomUUID } from "node:crypto";
import { ApiError } from "@/lib/api/errors";
import type { Tier } from "@/lib/auth/tiers";
import { env } from "@/lib/env";
import { getLimitsKv } from "@/lib/kv/redis";
import { errorFields, log } from "@/lib/log";
import { withTimeout } from "@/lib/timeout";

export const LEASE_TTL_MS = 60_000;
export const LEASE_RENEW_MS = 20_000;

export function streamLimit(tier: Tier): number {
  switch (tier) {
    case "starter":
      return env.STREAM_LIMIT_STARTER;
    case "pro":
      return env.STREAM_LIMIT_PRO;
    case "enterprise":
      return env.STREAM_LIMIT_ENTERPRISE;
  }
}

// Drop lapsed leases, refuse when full, otherwise add ours; answers [granted, ms until the oldest lease lapses].
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local count = redis.call('ZCARD', KEYS[1])
if count >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  local wait = 1000
  if oldest[2] then wait = tonumber(oldest[2]) - tonumber(ARGV[1]) end
  return {0, wait}
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {1, 0}`;

const memory = ((globalThis as unknown as { __predmktStreamLeases?: Map<string, Map<string, number>> }).__predmktStreamLeases ??= new Map<
  string,
  Map<string, number>
>());

export interface Lease {
  id: string;
  renew(): Promise<void>;
  release(): Promise<void>;
}

export type AcquireResult = { granted: true; lease: Lease } | { granted: false; retryAfterS: number; limit: number };

const setKey = (keyId: string) => `predmkt:streams:${keyId}`;
const addressSetKey = (address: string) => `predmkt:streams:dashboard-address:${address}`;

// Renew a lease that is still there, and the set's own expiry with it (a set outlives its longest lease).
const RENEW = `
if redis.call('ZADD', KEYS[1], 'XX', 'CH', ARGV[1], ARGV[2]) == 1 or redis.call('ZSCORE', KEYS[1], ARGV[2]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return 1`;

function acquireInMemory(set: string, limit: number, id: string, now: number): AcquireResult {
  const leases = memory.get(set) ?? new Map<string, number>();
  for (const [lease, expiry] of leases) if (expiry <= now) leases.delete(lease);
  if (leases.size >= limit) {
    memory.set(set, leases);
    const oldest = Math.min(...leases.values());
    return { granted: false, retryAfterS: Math.max(1, Math.ceil((oldest - now) / 1000)), limit };
  }
  leases.set(id, now + LEASE_TTL_MS);
  memory.set(set, leases);
  return {
    granted: true,
    lease: {
      id,
      renew: async () => {
        if (leases.has(id)) leases.set(id, Date.now() + LEASE_TTL_MS);
      },
      release: async () => {
        leases.delete(id);
        // An empty set is dropped, so the map holds only keys and addresses with a stream open.
        if (leases.size === 0 && memory.get(set) === leases) memory.delete(set);
      },
    },
  };
}

/** Stream slots held in this process (in-memory leases), per set and in all; for tests, the bench and health. */
export function inProcessStreamSlots(): { sets: number; leases: number } {
  let leases = 0;
  for (const set of memory.values()) leases += set.size;
  return { sets: memory.size, leases };
}

/** Takes one of the key's stream slots, or says how long until one may free up. */
export function acquireStream(keyId: string, tier: Tier, now = Date.now()): Promise<AcquireResult> {
  return acquireSlot(setKey(keyId), streamLimit(tier), now);
}

/** Takes one of a dashboard client address's stream slots (its slice of the dashboard key's streams). */
export function acquireDashboardAddressStream(address: string, now = Date.now()): Promise<AcquireResult> {
  return acquireSlot(addressSetKey(address), env.STREAM_LIMIT_DASHBOARD_PER_ADDRESS, now);
}

async function acquireSlot(set: string, limit: number, now: number): Promise<AcquireResult> {
  const id = randomUUID();
  const kv = getLimitsKv();
  if (kv) {
    try {
      const [granted, waitMs] = await withTimeout(
        kv.redis.eval<string[], [number, number]>(
          ACQUIRE,
          [set],
          [String(now), String(now + LEASE_TTL_MS), String(limit), id, String(LEASE_TTL_MS * 2)],
        ),
        env.RATE_LIMIT_STORE_TIMEOUT_MS,
        "rate-limit store did not answer in time",
      );
      if (!granted) return { granted: false, retryAfterS: Math.max(1, Math.ceil(Number(waitMs) / 1000)), limit };
      const key = set;
      const quiet = (work: Promise<unknown>) =>
        withTimeout(work, env.RATE_LIMIT_STORE_TIMEOUT_MS, "rate-limit store did not answer in time").then(
          () => undefined,
          () => undefined,
        );
      return {
        granted: true,
        lease: {
          id,
          renew: () => quiet(kv.redis.eval(RENEW, [key], [String(Date.now() + LEASE_TTL_MS), id, String(LEASE_TTL_MS * 2)])),
          release: () => quiet(kv.redis.zrem(key, id)),
        },
      };
    } catch (error) {
      log.warn("stream limit: store unreachable; counting in process", errorFields(error));
    }
  }
  return acquireInMemory(set, limit, id, now);
}

/**
 * The slots one stream holds: the key's, and for a dashboard visitor first its address's slice. Refused with a 429
 * (and `Retry-After`) naming the limit that was reached; nothing stays taken when one of them is refused.
 */
export async function acquireStreamSlots(options: { keyId: string; tier: Tier; dashboardAddress: string | null }): Promise<Lease> {
  let own: Lease | null = null;
  if (options.dashboardAddress !== null) {
    const slice = await acquireDashboardAddressStream(options.dashboardAddress);
    if (!slice.granted) {
      throw new ApiError(
        "rate_limited",
        `At most ${slice.limit} concurrent dashboard streams per client address; close one or retry in ${slice.retryAfterS} s.`,
        { headers: { "Retry-After": String(slice.retryAfterS) } },
      );
    }
    own = slice.lease;
  }
  const slot = await acquireStream(options.keyId, options.tier);
  if (!slot.granted) {
    await own?.release();
    throw new ApiError(
      "rate_limited",
      `At most ${slot.limit} concurrent streams per key on the ${options.tier} tier; close one or retry in ${slot.retryAfterS} s.`,
      { headers: { "Retry-After": String(slot.retryAfterS) } },
    );
  }
  if (!own) return slot.lease;
  const address = own;
  return {
    id: slot.lease.id,
    renew: async () => void (await Promise.all([slot.lease.renew(), address.renew()])),
    release: async () => void (await Promise.all([slot.lease.release(), address.release()])),
  };
}
