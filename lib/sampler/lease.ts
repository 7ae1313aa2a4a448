// At most one sampler pass at a time, across processes and hosts: a row in `sampler_lease` with an expiry, taken by
// an atomic INSERT ... ON CONFLICT DO UPDATE ... WHERE expired. The database's clock decides expiry, so hosts with
// skewed clocks agree. Works on PGlite (which has no cross-process advisory locks) and PostgreSQL alike.
import type { Db } from "@/lib/db/client";

const LEASE_NAME = "sampler";

export class LeaseLostError extends Error {
  constructor() {
    super("the sampler lease expired and was taken over by another pass");
    this.name = "LeaseLostError";
  }
}

export async function acquireLease(db: Db, holder: string, ttlMs: number): Promise<boolean> {
  const rows = await db.$queryRawUnsafe<{ holder: string }[]>(
    `INSERT INTO sampler_lease (name, holder, expires_at)
     VALUES ($1, $2, now() + make_interval(secs => $3::float8 / 1000))
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE sampler_lease.expires_at < now()
     RETURNING holder`,
    LEASE_NAME,
    holder,
    ttlMs,
  );
  return rows.length === 1 && rows[0].holder === holder;
}

/** Extends the lease; throws LeaseLostError if another pass holds it now (ours lapsed), so we stop writing. */
export async function renewLease(db: Db, holder: string, ttlMs: number): Promise<void> {
  const updated = await db.$executeRawUnsafe(
    `UPDATE sampler_lease SET expires_at = now() + make_interval(secs => $3::float8 / 1000) WHERE name = $1 AND holder = $2`,
    LEASE_NAME,
    holder,
    ttlMs,
  );
  if (updated !== 1) throw new LeaseLostError();
}

export async function releaseLease(db: Db, holder: string): Promise<void> {
  await db.$executeRawUnsafe(`DELETE FROM sampler_lease WHERE name = $1 AND holder = $2`, LEASE_NAME, holder);
}
