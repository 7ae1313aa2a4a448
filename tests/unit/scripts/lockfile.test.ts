// Every package in the lockfile is pinned by hash (SECURITY.md "Supply chain"), the other platforms' optional
// binaries included: an entry without `integrity` would be installed unverified where its platform matches.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

describe("package-lock.json", () => {
  it("has an integrity hash for every package", () => {
    const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as {
      packages: Record<string, { link?: boolean; integrity?: string }>;
    };
    const unpinned = Object.entries(lock.packages)
      .filter(([location, entry]) => location !== "" && !entry.link)
      .filter(([, entry]) => !/^sha512-/.test(entry.integrity ?? ""))
      .map(([location]) => location);
    expect(unpinned).toEqual([]);
  });
});
