import type { Metadata } from "next";
import Link from "next/link";
import { TradeTape } from "@/components/lists/trade-tape";
import { abnormalTrades, listTrades } from "@/lib/predmkt/trades";
import { initialFrom } from "@/lib/queries/initial";
import type { AbnormalTrade, Trade } from "@/lib/queries/types";
import { ABNORMAL_LIMIT, TAPE_LIMIT } from "@/lib/queries/views";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Trades" };

export default async function TradesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = Number((await searchParams).min_usd);
  const minUsd = Number.isFinite(raw) && raw > 0 && raw < 1e12 ? raw : 0;
  const [tape, abnormal] = await Promise.all([
    initialFrom<Trade[]>(() => listTrades(minUsd, TAPE_LIMIT)),
    initialFrom<AbnormalTrade[]>(() => abnormalTrades(ABNORMAL_LIMIT)),
  ]);
  return (
    <>
      <div className="page-title">
        <h1>Trades</h1>
        <p className="lede">
          Every trade the sampler saw across Polymarket, newest first. Follow a market to its event page, or see who holds the biggest
          positions on <Link href="/whales">whales</Link>.
        </p>
      </div>
      <TradeTape initial={tape} initialMinUsd={minUsd} initialAbnormal={abnormal} />
    </>
  );
}
