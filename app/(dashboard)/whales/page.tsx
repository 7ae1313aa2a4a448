import type { Metadata } from "next";
import Link from "next/link";
import { WhalesTable } from "@/components/lists/whales";
import { listWhales } from "@/lib/predmkt/whales";
import { initialFrom } from "@/lib/queries/initial";
import type { Whale } from "@/lib/queries/types";
import { WHALES_LIMIT } from "@/lib/queries/views";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Whales" };

export default async function WhalesPage() {
  const initial = await initialFrom<Whale[]>(() => listWhales({ limit: WHALES_LIMIT }));
  return (
    <>
      <div className="page-title">
        <h1>Whales</h1>
        <p className="lede">
          The largest open positions among the top holders of the biggest markets. Big single trades are on the{" "}
          <Link href="/trades">trade tape</Link>; big price swings on <Link href="/movers">movers</Link>.
        </p>
      </div>
      <WhalesTable initial={initial} />
    </>
  );
}
