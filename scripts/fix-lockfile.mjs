// The npm mirror these machines use lacks some optional platform binaries (darwin/win32/linux-arm64 builds of
// @next/swc and anvil), so `npm install` leaves them out of package-lock.json and `npm ci` then refuses the lockfile.
// This adds inert stub entries for exactly the packages `npm ci --dry-run` reports missing; npm never fetches them on
// linux-x64 because their os/cpu do not match. Re-run after any lockfile regeneration.
// Each stub then gets its `resolved` URL and `integrity` hash from the registry (`npm view`), so every entry of the
// lockfile is pinned by hash (tests/unit/scripts/lockfile.test.ts). A registry that does not have the package
// (the offline mirror) leaves the stub as it is and says so: the install still works on linux-x64, and the next run
// against a registry that has it fills the hash in.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

function missingFromLock() {
  try {
    execFileSync("npm", ["ci", "--dry-run"], { stdio: "pipe" });
    return [];
  } catch (error) {
    const output = String(error.stdout ?? "") + String(error.stderr ?? "");
    return [...output.matchAll(/Missing: (\S+?)@\S* from lock file/g)].map((m) => m[1]);
  }
}

function platformOf(name) {
  const os = /darwin/.test(name) ? "darwin" : /win32/.test(name) ? "win32" : /linux/.test(name) ? "linux" : undefined;
  const cpu = /arm64/.test(name) ? "arm64" : /(x64|amd64)/.test(name) ? "x64" : undefined;
  return { os, cpu };
}

const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
const missing = missingFromLock();
for (const name of missing) {
  let version;
  for (const entry of Object.values(lock.packages)) {
    const spec = entry.optionalDependencies?.[name];
    if (spec) version = spec.replace(/^[^\d]*/, "");
  }
  if (!version) throw new Error(`no parent declares optional dependency ${name}`);
  const { os, cpu } = platformOf(name);
  lock.packages[`node_modules/${name}`] = { version, optional: true, ...(os && { os: [os] }), ...(cpu && { cpu: [cpu] }) };
}
const unpinned = [];
for (const [location, entry] of Object.entries(lock.packages)) {
  if (!location || entry.link || entry.integrity) continue;
  const name = location.replace(/^.*node_modules\//, "");
  try {
    const dist = JSON.parse(execFileSync("npm", ["view", `${name}@${entry.version}`, "dist", "--json"], { stdio: "pipe" }).toString());
    if (!dist.integrity || !dist.tarball) throw new Error("no dist.integrity");
    entry.resolved = dist.tarball;
    entry.integrity = dist.integrity;
  } catch {
    unpinned.push(`${name}@${entry.version}`);
  }
}
if (unpinned.length) console.warn(`lockfile: the registry has no hash for ${unpinned.join(", ")}; left without integrity`);
writeFileSync("package-lock.json", JSON.stringify(lock, null, 2) + "\n");
const still = missingFromLock();
console.log(`lockfile: added ${missing.length} stub(s); still missing: ${still.length ? still.join(", ") : "none"}`);
if (still.length) process.exit(1);
