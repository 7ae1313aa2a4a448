// Every relative link in README.md, docs/*.md and bench/README.md points at a file or folder that exists.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../../..");
const PAGES = [
  "README.md",
  "bench/README.md",
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** Markdown links and images, outside fenced code blocks: [text](target) with a relative target. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "");
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^([a-z][a-z0-9+.-]*:|#|\/)/i.test(target));
}

describe("documentation links", () => {
  it("finds the pages", () => {
    expect(PAGES.length).toBeGreaterThan(8);
  });

  it.each(PAGES)("every relative link in %s resolves", (page) => {
    const links = relativeLinks(readFileSync(path.join(ROOT, page), "utf8"));
    const dead = links.filter((target) => !existsSync(path.resolve(path.dirname(path.join(ROOT, page)), decodeURI(target.split("#")[0]))));
    expect(dead).toEqual([]);
  });
});
