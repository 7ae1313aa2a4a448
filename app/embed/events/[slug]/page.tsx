import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { EventWidget } from "@/components/embed/event-widget";
import { SLUG_PATTERN } from "@/lib/api/schemas";
import { getEvent } from "@/lib/predmkt/events";
import { initialFrom } from "@/lib/queries/initial";
import type { EventDetail, LiveSeries } from "@/lib/queries/types";
import { getEventHistoryLive } from "@/lib/predmkt/live";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Widget", robots: { index: false } };

// Embeddable on any site: <iframe src="https://<host>/embed/events/<slug>" width="360" height="260"></iframe>.
// No nav, no footer, nothing that needs the surrounding dashboard.
export default async function EmbedEventPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  if (!SLUG_PATTERN.test(slug)) notFound();
  const [event, history] = await Promise.all([
    initialFrom<EventDetail>(() => getEvent(slug)),
    initialFrom<LiveSeries[]>(() => getEventHistoryLive(slug, { interval: "1d", markets: 1 }), 5_000),
  ]);
  if (!event.ok && event.error.code === "not_found") notFound();
  return (
    <main className="embed">
      <EventWidget slug={slug} initialEvent={event} initialHistory={history} />
    </main>
  );
}
