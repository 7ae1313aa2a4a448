// The operator's key tool (spec §5.1: keys are issued by hand on request).
//   npm run keys -- create --tier starter|pro|enterprise --owner "Acme" [--use-case "..."] [--volume "..."]
//   npm run keys -- list
//   npm run keys -- revoke <prefix-or-id>
import { parseArgs } from "node:util";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/auth/api-key";
import { TIERS, type Tier } from "@/lib/auth/tiers";
import { openToolDb } from "@/lib/db/tool-client";

const USAGE = `usage:
  npm run keys -- create --tier ${TIERS.join("|")} --owner "<who>" [--use-case "<what for>"] [--volume "<expected requests>"]
  npm run keys -- list
  npm run keys -- revoke <prefix-or-id>`;

function fail(message: string): never {
  console.error(message);
  console.error(USAGE);
  process.exit(2);
}

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      tier: { type: "string" },
      owner: { type: "string" },
      "use-case": { type: "string" },
      volume: { type: "string" },
      json: { type: "boolean" },
    },
  });
  const [command, target] = positionals;
  if (!command) fail("missing command");
  if (command === "create") {
    if (!values.tier || !TIERS.includes(values.tier as Tier)) fail(`--tier must be one of ${TIERS.join(", ")}`);
    if (!values.owner?.trim()) fail("--owner is required");
  } else if (command === "revoke") {
    if (!target) fail("revoke needs a key prefix (pmk_xxxxxxxx) or id");
  } else if (command !== "list") {
    fail(`unknown command '${command}'`);
  }

  const tool = await openToolDb();
  try {
    if (command === "create") {
      const { key, record } = await createApiKey(tool.db, {
        tier: values.tier as Tier,
        owner: values.owner!.trim(),
        useCase: values["use-case"],
        expectedVolume: values.volume,
      });
      console.error(`Created ${record.tier} key ${record.prefix}… for ${record.owner} (id ${record.id}).`);
      console.error("The key is shown once and cannot be recovered; store it now:");
      console.log(key);
    } else if (command === "list") {
      const keys = await listApiKeys(tool.db);
      if (values.json) {
        console.log(JSON.stringify(keys.map(({ hashedKey: _hash, ...rest }) => rest), null, 2));
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
            last_used: k.lastUsedAt?.toISOString() ?? "never",
            id: k.id,
          })),
        );
      }
    } else {
      const revoked = await revokeApiKey(tool.db, target!);
      if (!revoked) {
        console.error(`no key matches '${target}'`);
        process.exitCode = 1;
      } else {
        console.log(`revoked ${revoked.prefix} (${revoked.owner}); running servers refuse it within 60 s`);
      }
    }
  } finally {
    await tool.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
