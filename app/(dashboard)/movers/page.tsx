import type { Metadata } from "next";
import Link from "next/link";
import { MoversTable } from "@/components/lists/movers";
import { movers } from "@/lib/predmkt/movers";
import { initialFrom } from "@/lib/queries/initial";
import type { Mover } from "@/lib/queries/types";
import { MOVER_WINDOWS, MOVERS_LIMIT, type MoverWindow } from "@/lib/queries/views";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Movers" };

export default async function MoversPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const requested = (await searchParams).window;
  const moverWindow = (MOVER_WINDOWS as readonly string[]).includes(String(requested)) ? (requested as MoverWindow) : "24h";
  const initial = await initialFrom<Mover[]>(() => movers(moverWindow, MOVERS_LIMIT));
  return (
    <>
      <div className="page-title">
        <h1>Movers</h1>
        <p className="lede">
          Open markets whose leading outcome moved the most, in probability points. See the <Link href="/trades">trade tape</Link> for what
          moved them and <Link href="/whales">whale positions</Link> for who holds them.
        </p>
      </div>
      <MoversTable initial={initial} initialWindow={moverWindow} />
    </>
  );
}
