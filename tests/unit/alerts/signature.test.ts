// Standard Webhooks signatures, checked by an independent implementation written here from the specification with
// node:crypto (HMAC-SHA256 keyed with the base64 bytes after `whsec_`, over "id.timestamp.body", base64), and by the
// specification's reference verifier.
import { createHmac, timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newSigningSecret, signatureHeaders } from "@/lib/alerts/sign";

function verifyIndependently(secret: string, headers: Record<string, string>, body: string): boolean {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${body}`).digest();
  return headers["webhook-signature"].split(" ").some((entry) => {
    const [version, value] = entry.split(",");
    const given = Buffer.from(value ?? "", "base64");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

describe("webhook signatures", () => {
  const body = JSON.stringify({ type: "trade", timestamp: "2026-11-26T00:00:00.000Z", data: { id: "t1", usd_size: 12_345.67, rule: 0 } });
  const at = new Date("2026-11-26T12:34:56.789Z");

  it("signs id.timestamp.body with the secret's bytes (verified by node:crypto, independently)", () => {
    const secret = newSigningSecret();
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
    const headers = signatureHeaders(secret, "msg_abc", at, body);
    expect(headers["webhook-id"]).toBe("msg_abc");
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(at.getTime() / 1000)));
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verifyIndependently(secret, headers, body)).toBe(true);
    expect(verifyIndependently(secret, headers, body.replace("12345.67", "12345.68"))).toBe(false);
    expect(verifyIndependently(secret, { ...headers, "webhook-id": "msg_abd" }, body)).toBe(false);
    expect(verifyIndependently(newSigningSecret(), headers, body)).toBe(false);
  });

  it("matches the specification's example vector and its reference verifier", () => {
    // The Standard Webhooks specification's worked example (spec/standard-webhooks.md, "Signature scheme").
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const headers = signatureHeaders(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", new Date(1614265330 * 1000), '{"test": 2432232314}');
    expect(headers["webhook-signature"]).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    const now = new Date();
    const fresh = signatureHeaders(secret, "msg_1", now, body);
    expect(new Webhook(secret).verify(body, fresh)).toEqual(JSON.parse(body));
  });
});
