// The operator's key tool (spec §5.1: keys are issued by hand on request). README "API keys" describes the lifecycle.
//   npm run keys -- create --tier starter|pro|enterprise --owner "Acme" [--use-case "..."] [--volume "..."] [--expires 90d]
//   npm run keys -- list [--json]
//   npm run keys -- revoke <prefix-or-id>
//   npm run keys -- requests [--all] [--json]
//   npm run keys -- approve <kr_ref> --tier <tier> [--expires 90d]
//   npm run keys -- reject <kr_ref> --reason "..."
//   npm run keys -- rotate <prefix-or-id> [--grace 24h]
//   npm run keys -- usage [<prefix-or-id>] [--since 7d] [--json]
//   npm run keys -- alerts <prefix-or-id> [--json]   (the key's alert subscriptions, docs/alerts.md)
// Durations: a whole number and one unit, `30s`, `15m`, `24h`, `90d`.
import { parseArgs } from "node:util";
import { createApiKey, findApiKey, listApiKeys, revokeApiKey } from "@/lib/auth/api-key";
import { TIERS, type Tier } from "@/lib/auth/tiers";
import { openToolDb } from "@/lib/db/tool-client";
import { formatAge, formatDuration, parseDuration } from "@/lib/keys/durations";
import { approveKeyRequest, KeyRequestDecisionError, listKeyRequests, rejectKeyRequest } from "@/lib/keys/requests";
import { DEFAULT_ROTATION_GRACE_MS, KeyRotationError } from "@/lib/keys/rotation";
import { keySubscriptions } from "@/lib/alerts/report";
import { USAGE_FLUSH_INTERVAL_MS } from "@/lib/keys/usage-meter";
import { usageSummaries } from "@/lib/keys/usage-report";

const USAGE = `usage:
  npm run keys -- create --tier ${TIERS.join("|")} --owner "<who>" [--use-case "<what for>"] [--volume "<expected requests>"] [--expires 90d]
  npm run keys -- list [--json]
  npm run keys -- revoke <prefix-or-id>
  npm run keys -- requests [--all] [--json]
  npm run keys -- approve <kr_reference> --tier ${TIERS.join("|")} [--expires 90d]
  npm run keys -- reject <kr_reference> --reason "<why>"
  npm run keys -- rotate <prefix-or-id> [--grace 24h]
  npm run keys -- usage [<prefix-or-id>] [--since 7d] [--json]
  npm run keys -- alerts <prefix-or-id> [--json]
durations: a whole number and one unit: 30s, 15m, 24h, 90d`;

const COMMANDS = ["create", "list", "revoke", "requests", "approve", "reject", "rotate", "usage", "alerts"] as const;
type Command = (typeof COMMANDS)[number];

function fail(message: string): never {
  console.error(message);
  console.error(USAGE);
  process.exit(2);
}

function durationOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseDuration(value);
  if (ms === null) fail(`--${name} must be a duration like 30s, 15m, 24h or 90d, not '${value}'`);
  return ms;
}

function tierOption(value: string | undefined): Tier {
  if (!value || !TIERS.includes(value as Tier)) fail(`--tier must be one of ${TIERS.join(", ")}`);
  return value as Tier;
}

/** The key goes to stdout alone (scripts capture it); everything said about it goes to stderr. */
function printNewKey(key: string, record: { tier: string; prefix: string; owner: string; id: string; expiresAt: Date | null }) {
  const expiry = record.expiresAt ? `, expires ${record.expiresAt.toISOString()}` : "";
  console.error(`Created ${record.tier} key ${record.prefix}… for ${record.owner} (id ${record.id}${expiry}).`);
  console.error("The key is shown once and cannot be recovered; store it now:");
  console.log(key);
}

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      tier: { type: "string" },
      owner: { type: "string" },
      "use-case": { type: "string" },
      volume: { type: "string" },
      expires: { type: "string" },
      grace: { type: "string" },
      since: { type: "string" },
      reason: { type: "string" },
      all: { type: "boolean" },
      json: { type: "boolean" },
    },
  });
  const [name, target] = positionals;
  if (!name) fail("missing command");
  if (!COMMANDS.includes(name as Command)) fail(`unknown command '${name}'`);
  const command = name as Command;
  const expiresInMs = durationOption("expires", values.expires);
  const graceMs = durationOption("grace", values.grace) ?? DEFAULT_ROTATION_GRACE_MS;
  const sinceMs = durationOption("since", values.since) ?? 7 * 86_400_000;
  const expiresAt = expiresInMs === undefined ? null : new Date(Date.now() + expiresInMs);
  if (command === "create") {
    tierOption(values.tier);
    if (!values.owner?.trim()) fail("--owner is required");
  } else if (command === "revoke" || command === "rotate" || command === "alerts") {
    if (!target) fail(`${command} needs a key prefix (pmk_xxxxxxxx) or id`);
  } else if (command === "approve") {
    if (!target) fail("approve needs a request reference (kr_…)");
    tierOption(values.tier);
  } else if (command === "reject") {
    if (!target) fail("reject needs a request reference (kr_…)");
    if (!values.reason?.trim()) fail('reject needs --reason "<why>" (the requester is told)');
  }

  const tool = await openToolDb();
  try {
    switch (command) {
      case "create": {
        const { key, record } = await createApiKey(tool.db, {
          tier: values.tier as Tier,
          owner: values.owner!.trim(),
          useCase: values["use-case"],
          expectedVolume: values.volume,
          expiresAt,
        });
        printNewKey(key, record);
        break;
      }
      case "list": {
        const keys = await listApiKeys(tool.db);
        if (values.json) {
          console.log(
            JSON.stringify(
              keys.map(({ hashedKey: _hash, ...rest }) => rest),
              null,
              2,
            ),
          );
        } else if (keys.length === 0) {
          console.log("no keys");
        } else {
          console.table(
            keys.map((k) => ({
              prefix: k.prefix,
              tier: k.tier,
              owner: k.owner,
              status: k.status,
              created: k.createdAt.toISOString(),
              expires: k.expiresAt?.toISOString() ?? "never",
              rotated_until: k.graceEndsAt?.toISOString() ?? "",
              last_used: k.lastUsedAt?.toISOString() ?? "never",
              id: k.id,
            })),
          );
        }
        break;
      }
      case "revoke": {
        const revoked = await revokeApiKey(tool.db, target);
        if (!revoked) {
          console.error(`no key matches '${target}'`);
          process.exitCode = 1;
        } else {
          console.log(`revoked ${revoked.prefix} (${revoked.owner}); running servers refuse it within 60 s`);
        }
        break;
      }
      case "requests": {
        const requests = await listKeyRequests(tool.db, { all: values.all });
        if (values.json) {
          console.log(JSON.stringify(requests, null, 2));
        } else if (requests.length === 0) {
          console.log(values.all ? "no key requests" : "no pending key requests (--all lists decided ones too)");
        } else {
          console.table(
            requests.map((r) => ({
              reference: r.reference,
              age: formatAge(r.createdAt),
              who: `${r.name} <${r.email}>`,
              use_case: r.useCase.length > 60 ? `${r.useCase.slice(0, 57)}...` : r.useCase,
              per_min: r.requestsPerMinute,
              per_day: r.requestsPerDay,
              desired_tier: r.desiredTier,
              status: r.status,
            })),
          );
        }
        break;
      }
      case "approve": {
        const { request, key, record } = await approveKeyRequest(tool.db, target, { tier: values.tier as Tier, expiresAt });
        console.error(`Approved ${request.reference} (${request.name} <${request.email}>).`);
        printNewKey(key, record);
        break;
      }
      case "reject": {
        const request = await rejectKeyRequest(tool.db, target, values.reason!.trim());
        console.log(`rejected ${request.reference} (${request.name} <${request.email}>): ${request.rejectReason}`);
        break;
      }
      case "usage": {
        const key = target ? await findApiKey(tool.db, target) : undefined;
        if (key === null) throw new KeyRotationError(`no key matches '${target}'`);
        const summaries = await usageSummaries(tool.db, { since: new Date(Date.now() - sinceMs), key });
        if (values.json) {
          console.log(JSON.stringify(summaries, null, 2));
        } else if (summaries.length === 0) {
          console.log("no keys");
        } else {
          console.error(
            `Usage over the last ${formatDuration(sinceMs)}, keys nearest their limit first ` +
              `(servers flush counts every ${USAGE_FLUSH_INTERVAL_MS / 1000} s).`,
          );
          console.table(
            summaries.map((u) => ({
              prefix: u.prefix,
              owner: u.owner,
              tier: u.tier,
              requests: u.requests,
              peak_min: `${u.peak_per_minute} / ${u.limit_per_minute} (${Math.round(u.peak_share * 100)}%)`,
              "429s": u.rate_limited,
              "5xx": u.errors_5xx,
              top_operations: u.top_operations.map((o) => `${o.operation} ×${o.requests}`).join(", "),
              last_used: u.last_used ?? "never",
            })),
          );
        }
        break;
      }
      case "alerts": {
        const key = await findApiKey(tool.db, target);
        if (!key) {
          console.error(`no key matches '${target}'`);
          process.exitCode = 1;
          break;
        }
        const subscriptions = await keySubscriptions(tool.db, key.id);
        if (values.json) console.log(JSON.stringify(subscriptions, null, 2));
        else if (subscriptions.length === 0) console.log(`key ${key.prefix} has no alert subscriptions`);
        else console.table(subscriptions);
        break;
      }
      case "rotate": {
        // Loaded for this command only: a rotation moves the key's alert subscriptions, and their module brings in
        // the stream's, the upstream clients' and the oracle's. Imported at the top, they cost every command of this
        // tool about 1.4 s of CPU at start (3.7 → 2.3 s measured for a usage error).
        const { rotateKey } = await import("@/lib/server/key-rotation");
        const { old, key, record } = await rotateKey(tool.db, target, graceMs);
        console.error(
          `Rotated ${old.prefix}: it keeps working for ${formatDuration(graceMs)}, until ${old.graceEndsAt!.toISOString()}, ` +
            "then answers 401 key_rotated.",
        );
        printNewKey(key, record);
        break;
      }
    }
  } catch (error) {
    if (!(error instanceof KeyRequestDecisionError || error instanceof KeyRotationError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  } finally {
    await tool.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
