// Standard Webhooks signatures (https://www.standardwebhooks.com, docs/alerts.md#verifying): `webhook-id`,
// `webhook-timestamp` (Unix seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed
// with the base64 bytes after `whsec_`. Signed with the specification's own reference library (`standardwebhooks`).
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

const SECRET_PREFIX = "whsec_";

/** A new signing secret: `whsec_` + base64 of 32 random bytes (the specification asks for 24 to 64). */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

export function signatureHeaders(secret: string, webhookId: string, at: Date, body: string): Record<string, string> {
  const signature = new Webhook(secret).sign(webhookId, at, body);
  return {
    "webhook-id": webhookId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signature,
  };
}
