import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DisputeDetailView } from "@/components/oracle/dispute-detail";
import { initialFrom } from "@/lib/queries/initial";
import type { DisputeDetail } from "@/lib/queries/types";
import { disputeDetail } from "@/lib/resolution/detail";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };
const ID_PATTERN = /^0x[0-9a-fA-F]{64}$/;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  if (!ID_PATTERN.test(id)) return { title: "Dispute not found" };
  const detail = await initialFrom<DisputeDetail>(async () => (await disputeDetail(id)).body);
  return { title: detail.ok ? (detail.body.data.title ?? "Dispute") : "Dispute" };
}

export default async function DisputePage({ params }: Props) {
  const { id } = await params;
  if (!ID_PATTERN.test(id)) notFound();
  const initial = await initialFrom<DisputeDetail>(async () => (await disputeDetail(id)).body);
  if (!initial.ok && initial.error.code === "not_found") notFound();
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link href="/oracle">Oracle</Link> / dispute
      </nav>
      <DisputeDetailView id={id} initial={initial} />
    </>
  );
}
