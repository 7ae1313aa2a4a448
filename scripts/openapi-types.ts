// `npm run openapi:types`: writes client/openapi.d.ts from the OpenAPI document (scripts/lib/openapi-types.ts). It runs
// at install (postinstall) and before the type check in `npm test`; the file is generated, never committed.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { generateTypes, TYPES_FILE } from "./lib/openapi-types";

async function main(): Promise<void> {
  mkdirSync(path.dirname(TYPES_FILE), { recursive: true });
  writeFileSync(TYPES_FILE, await generateTypes());
  console.log(`wrote ${path.relative(process.cwd(), TYPES_FILE)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
