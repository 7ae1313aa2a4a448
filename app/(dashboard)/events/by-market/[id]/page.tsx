import { notFound, redirect } from "next/navigation";
import { CONDITION_ID_PATTERN } from "@/lib/api/schemas";
import { eventSlugOfMarket } from "@/lib/predmkt/lookup";

export const dynamic = "force-dynamic";

// Positions and trades name a market, not its event: this resolves a market id (or condition id) to its event page.
export default async function MarketRedirect({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const isCondition = CONDITION_ID_PATTERN.test(id);
  if (!isCondition && !/^\d{1,20}$/.test(id)) notFound();
  const slug = await eventSlugOfMarket(id, isCondition);
  if (!slug) notFound();
  redirect(`/events/${slug}`);
}
