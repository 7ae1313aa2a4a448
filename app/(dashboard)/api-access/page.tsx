import type { Metadata } from "next";
import Link from "next/link";
import { decodeFormState } from "@/lib/api/form-redirect";
import { KEY_REQUEST_REFERENCE_PATTERN } from "@/lib/keys/requests";
import type { TIERS } from "@/lib/auth/tiers";
import { TierTable } from "@/components/tier-table";
import { KeyRequestForm } from "./key-request-form";

export const metadata: Metadata = { title: "API access" };
export const dynamic = "force-dynamic";

const TIER_NOTES: Record<(typeof TIERS)[number], string> = {
  starter: "Trying the API, small tools and dashboards",
  pro: "Production apps and regular research jobs",
  enterprise: "High-volume and redistribution use",
};

// Spec §5.1: keys are issued by hand on request. Without JavaScript the form posts to the API and is redirected back
// here with `?ref=` (success) or `?form=` (field errors and the values to refill), see lib/api/form-redirect.ts.
export default async function ApiAccessPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const ref = typeof params.ref === "string" && KEY_REQUEST_REFERENCE_PATTERN.test(params.ref) ? params.ref : null;
  const state = decodeFormState(typeof params.form === "string" ? params.form : undefined);
  return (
    <div className="api-access">
      <div className="page-title">
        <h1>API access</h1>
        <p className="lede">
          Keys for the <Link href="/docs">JSON API</Link> are issued by the operator on request. Tell us who you are, what you will build
          and how many requests you expect; you get a reference now and the key by email once the request is approved.
        </p>
      </div>
      <div className="api-access-layout">
        <section className="panel" aria-labelledby="request-title">
          <h2 id="request-title">Request a key</h2>
          <KeyRequestForm initialReference={ref} initialErrors={state?.errors ?? []} initialValues={state?.values ?? {}} />
        </section>
        <aside className="panel" aria-labelledby="tiers-title">
          <h2 id="tiers-title">Tiers and limits</h2>
          <TierTable notes={TIER_NOTES} />
          <p className="muted">
            Limits are per key over a sliding 60-second window; beyond it the API answers <code>429</code> with <code>Retry-After</code>.
            With your key, <code>GET /api/auth/usage</code> shows your tier, limit, this minute&apos;s count and the last 30 days by
            endpoint. Keys may carry an expiry, and a rotated key keeps working for a grace period announced in its <code>Sunset</code>{" "}
            header. See <Link href="/docs#getting-a-key">the API reference</Link>.
          </p>
        </aside>
      </div>
    </div>
  );
}
