// Bearer-secret checks of the operator routes: the cron routes (`Authorization: Bearer $CRON_SECRET`, which Vercel
// cron sends) and /api/metrics (`Bearer $METRICS_TOKEN`, which Prometheus sends).
import { createHash, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/env";
import { ApiError } from "./errors";

// Hashing both sides first gives equal-length buffers, so neither the comparison nor its length check leaks
// anything about the secret.
export function bearerSecretMatches(authorization: string | null, secret: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec((authorization ?? "").trim());
  if (!match) return false;
  const digest = (v: string) => createHash("sha256").update(v).digest();
  return timingSafeEqual(digest(match[1]), digest(secret));
}

function requireBearerSecret(request: Request, secret: string, name: string): void {
  const header = request.headers.get("authorization");
  if (!/^Bearer\s+\S/i.test((header ?? "").trim()))
    throw new ApiError("missing_credentials", `This route needs Authorization: Bearer <${name}>.`);
  if (!bearerSecretMatches(header, secret)) throw new ApiError("invalid_token", `The ${name} is not valid.`);
}

export function requireCronSecret(request: Request): void {
  requireBearerSecret(request, env.CRON_SECRET, "CRON_SECRET");
}

/** Metrics are off unless METRICS_TOKEN is set: then a 404, so an unconfigured deployment exposes nothing. */
export function requireMetricsToken(request: Request): void {
  if (!env.METRICS_TOKEN) throw new ApiError("not_found", "Metrics are disabled on this deployment (set METRICS_TOKEN to enable them).");
  requireBearerSecret(request, env.METRICS_TOKEN, "METRICS_TOKEN");
}
