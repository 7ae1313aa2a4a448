// Small lookups the dashboard's pages need, so pages read through this service rather than the database.
import { getDb } from "@/lib/db/client";

/** The event page a market belongs to, by market id or condition id (any case); null when unknown. */
export async function eventSlugOfMarket(id: string, isConditionId: boolean): Promise<string | null> {
  const db = await getDb();
  const market = await db.market.findFirst({
    where: isConditionId ? { conditionId: { equals: id, mode: "insensitive" } } : { id },
    select: { eventSlug: true },
  });
  return market?.eventSlug ?? null;
}

/** Real identifiers for the API docs' "Try it" forms: the busiest open event and its biggest market, when sampled. */
export async function exampleIdentifiers(): Promise<{ slug?: string; id?: string }> {
  const db = await getDb();
  const event = await db.event.findFirst({
    where: { open: true },
    orderBy: [{ volume24hUsd: "desc" }, { id: "asc" }],
    select: { id: true, slug: true },
  });
  if (!event) return {};
  const market = await db.market.findFirst({
    where: { eventId: event.id },
    orderBy: [{ volumeUsd: "desc" }, { id: "asc" }],
    select: { id: true },
  });
  return { slug: event.slug, ...(market ? { id: market.id } : {}) };
}
