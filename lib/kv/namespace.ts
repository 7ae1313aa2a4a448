// Which database the shared KV store's entries belong to. Instances of two deployments (or two test servers) may share
// one Redis: cached answers, per-pass aggregates and usage counts of different databases must never meet. An in-memory
// embedded database belongs to its process alone, so its namespace is unique to the process.
import { createHash, randomUUID } from "node:crypto";
import path from "node:path";
import { env } from "@/lib/env";

const dataAddress =
  env.DATABASE_URL ??
  (env.PGLITE_DIR?.startsWith("memory://") ? `memory:${randomUUID()}` : `pglite:${path.resolve(env.PGLITE_DIR ?? env.DATA_DIR)}`);

/** Ten base64url characters of the database's address: the prefix every shared key of this deployment carries. */
export const DATA_NAMESPACE = createHash("sha256").update(dataAddress).digest("base64url").slice(0, 10);
