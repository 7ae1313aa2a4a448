import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { ChangesTable } from "@/components/event/changes";
import { HistoryChart } from "@/components/event/history-chart";
import { TopHolders } from "@/components/event/holders";
import { EventMarkets } from "@/components/event/markets";
import { EventTradeFeed } from "@/components/event/trade-feed";
import { SkeletonRows } from "@/components/ui";
import { SLUG_PATTERN } from "@/lib/api/schemas";
import { formatDate, formatUsd } from "@/lib/format";
import { getEvent } from "@/lib/predmkt/events";
import { eventChanges } from "@/lib/predmkt/movers";
import { initialFrom } from "@/lib/queries/initial";
import type { Change, EventDetail, LiveHolderGroup, LiveSeries, LiveTrade } from "@/lib/queries/types";
import { EVENT_FEED_LIMIT, HISTORY_MARKETS, HOLDERS_LIMIT } from "@/lib/queries/views";
import { getEventActivityLive, getEventHistoryLive, getHoldersLive } from "@/lib/predmkt/live";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

async function loadEvent(slug: string) {
  if (!SLUG_PATTERN.test(slug)) notFound();
  const event = await initialFrom<EventDetail>(() => getEvent(slug));
  if (!event.ok && event.error.code === "not_found") notFound();
  return event;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params;
  if (!SLUG_PATTERN.test(slug)) return { title: "Event not found" };
  const event = await initialFrom<EventDetail>(() => getEvent(slug));
  return { title: event.ok ? event.body.data.title : "Event" };
}

// Live panels stream in after the sampled ones: a slow upstream delays only its own panel.
async function LiveHistory({ slug }: { slug: string }) {
  const initial = await initialFrom<LiveSeries[]>(() => getEventHistoryLive(slug, { interval: "1d", markets: HISTORY_MARKETS }));
  return <HistoryChart slug={slug} initial={initial} />;
}

async function LiveTrades({ slug }: { slug: string }) {
  const initial = await initialFrom<LiveTrade[]>(() => getEventActivityLive(slug, { limit: EVENT_FEED_LIMIT }));
  return <EventTradeFeed slug={slug} initial={initial} />;
}

async function LiveHolders({ markets, marketId }: { markets: { id: string; question: string }[]; marketId: string | null }) {
  const initial = marketId ? await initialFrom<LiveHolderGroup[]>(() => getHoldersLive(marketId, { limit: HOLDERS_LIMIT })) : undefined;
  return <TopHolders markets={markets} initialMarketId={marketId} initial={initial} />;
}

/** Links to the UMA disputes of this event's markets (their `resolution`, from the oracle index; docs/resolution.md). */
function EventDisputes({ markets }: { markets: EventDetail["markets"] }) {
  const disputed = markets.filter((m) => m.resolution.dispute_id);
  if (!disputed.length) return null;
  return (
    <p className="related" data-testid="event-disputes">
      Disputed on UMA:{" "}
      {disputed.map((m, i) => (
        <span key={m.id}>
          {i > 0 ? " · " : null}
          <Link href={`/oracle/disputes/${m.resolution.dispute_id}`}>
            {m.question} ({m.resolution.status})
          </Link>
        </span>
      ))}
    </p>
  );
}

function PanelFallback({ title }: { title: string }) {
  return (
    <section className="panel" aria-busy="true">
      <div className="panel-header">
        <h2>{title}</h2>
      </div>
      <SkeletonRows rows={5} label={`Loading ${title.toLowerCase()}`} />
    </section>
  );
}

export default async function EventPage({ params }: Props) {
  const { slug } = await params;
  const [event, changes] = await Promise.all([loadEvent(slug), initialFrom<Change[]>(() => eventChanges(slug, "24h"))]);
  const detail = event.ok ? event.body.data : null;
  const open = (detail?.markets ?? []).filter((m) => !m.closed);
  const byVolume = [...open].sort((a, b) => b.volume_usd - a.volume_usd);
  const holderMarkets = byVolume.map((m) => ({ id: m.id, question: m.question }));
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link href="/">Overview</Link>
        {detail?.category ? (
          <>
            {" / "}
            <Link href={`/?category=${detail.category}`}>{detail.category_label ?? detail.category}</Link>
          </>
        ) : null}
      </nav>
      <div className="page-title">
        <h1>{detail?.title ?? slug}</h1>
        {detail ? (
          <p className="lede">
            {formatUsd(detail.volume_24h_usd)} traded in 24 h · {formatUsd(detail.volume_usd)} total · {formatUsd(detail.liquidity_usd)}{" "}
            liquidity
            {detail.end_date ? ` · ends ${formatDate(detail.end_date)}` : ""}
          </p>
        ) : null}
        <p className="related">
          See also: <Link href="/trades">trade tape</Link> · <Link href="/movers">biggest movers</Link> ·{" "}
          <Link href="/whales">whale positions</Link>
        </p>
        <EventDisputes markets={detail?.markets ?? []} />
      </div>
      <div className="grid-2">
        <div className="col-main">
          <EventMarkets slug={slug} initial={event} />
          <Suspense fallback={<PanelFallback title="Price history" />}>
            <LiveHistory slug={slug} />
          </Suspense>
          <ChangesTable slug={slug} initial={changes} />
        </div>
        <div className="col-side">
          <Suspense fallback={<PanelFallback title="Live trades" />}>
            <LiveTrades slug={slug} />
          </Suspense>
          <Suspense fallback={<PanelFallback title="Top holders" />}>
            <LiveHolders markets={holderMarkets} marketId={holderMarkets[0]?.id ?? null} />
          </Suspense>
        </div>
      </div>
    </>
  );
}
