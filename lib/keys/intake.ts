// The public side of key requests: a request from the /api-access page or a script, limited per client address and
// screened by a honeypot field, stored pending for the operator (lib/keys/requests.ts).
import { ApiError } from "@/lib/api/errors";
import { clientAddress } from "@/lib/auth/client-address";
import { consume, retryAfterSeconds } from "@/lib/auth/ratelimit";
import type { Tier } from "@/lib/auth/tiers";
import { getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { KEY_REQUESTS_PER_ADDRESS_PER_MINUTE } from "./limits";
import { createKeyRequest, newKeyRequestReference } from "./requests";

interface KeyRequestForm {
  name: string;
  email: string;
  use_case: string;
  requests_per_minute: number;
  requests_per_day: number;
  desired_tier: Tier;
  /** The honeypot: hidden from people, so only a bot fills it. */
  website?: string;
}

interface KeyRequestReceipt {
  reference: string;
  status: "pending";
  next_steps: string;
}

const NEXT_STEPS =
  "The operator reviews requests by hand and sends the key to the email you gave; quote the reference when you write. " +
  "Keys are shown once: store yours when it arrives. Once you have it, GET /api/auth/usage shows your tier, limit and usage.";

export async function fileKeyRequest(headers: Headers, form: KeyRequestForm): Promise<KeyRequestReceipt> {
  const address = clientAddress(headers);
  const limit = await consume(`key-request:${address}`, KEY_REQUESTS_PER_ADDRESS_PER_MINUTE);
  if (!limit.success) {
    const retryAfter = retryAfterSeconds(limit.reset);
    throw new ApiError("rate_limited", `Too many key requests from this address; retry in ${retryAfter} s.`, {
      headers: { "Retry-After": String(retryAfter) },
    });
  }
  if (form.website?.trim()) {
    // A bot: answered like everyone else so it learns nothing, but nothing is stored for the operator to wade through.
    log.info("key request dropped by the honeypot", { address });
    return { reference: newKeyRequestReference(), status: "pending", next_steps: NEXT_STEPS };
  }
  const request = await createKeyRequest(await getDb(), {
    name: form.name,
    email: form.email,
    useCase: form.use_case,
    requestsPerMinute: form.requests_per_minute,
    requestsPerDay: form.requests_per_day,
    desiredTier: form.desired_tier,
  });
  return { reference: request.reference, status: "pending", next_steps: NEXT_STEPS };
}
