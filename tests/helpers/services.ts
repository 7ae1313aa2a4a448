// Real PostgreSQL and Redis are used when reachable (CI on this machine kind has both). REQUIRE_SERVICES=1 (set by
// .ci/run) turns "not reachable" into a failure instead of a skip, so CI can never silently skip them.
import { reachable } from "@/scripts/lib/net";

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

async function check(url: string, name: string): Promise<boolean> {
  const ok = await reachable(url);
  if (!ok && process.env.REQUIRE_SERVICES === "1") throw new Error(`${name} at ${url} is required (REQUIRE_SERVICES=1) but not reachable`);
  return ok;
}

export const postgresAvailable = () => check(POSTGRES_URL, "PostgreSQL");
export const redisAvailable = () => check(REDIS_URL, "Redis");
