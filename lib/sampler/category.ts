// An event's category: Gamma's tags are the reliable grouping (the legacy free-text `category` is mostly absent), but
// an event carries many tags ("Politics", "Elections", "US Election", ...). The category is the first tag that is one
// of Polymarket's top-level sections; failing that, the legacy field, then the first tag, then "other".
import type { NormalizedEvent } from "@/lib/upstream/types";

const TOP_LEVEL = [
  "politics",
  "sports",
  "crypto",
  "finance",
  "economy",
  "geopolitics",
  "tech",
  "culture",
  "world",
  "business",
  "science",
  "elections",
  "weather",
  "mentions",
];

export function slugify(value: string): string {
  return value
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100);
}

function titleCase(slug: string): string {
  return slug
    .split("-")
    .map((w) => (w ? w[0].toUpperCase() + w.slice(1) : w))
    .join(" ");
}

export function eventCategory(event: Pick<NormalizedEvent, "tags" | "category">): { slug: string; label: string } {
  const tags = event.tags.map((t) => ({ slug: slugify(t.slug || t.label), label: t.label || titleCase(t.slug) })).filter((t) => t.slug);
  for (const section of TOP_LEVEL) {
    const tag = tags.find((t) => t.slug === section);
    if (tag) return tag;
  }
  if (event.category && slugify(event.category)) return { slug: slugify(event.category), label: event.category };
  if (tags.length) return tags[0];
  return { slug: "other", label: "Other" };
}
