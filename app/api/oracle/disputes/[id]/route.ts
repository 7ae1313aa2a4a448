import { disputeEndpoint } from "@/lib/api/endpoints/oracle-disputes";
import { withApi } from "@/lib/api/with-api";
import { getDisputeDetail } from "@/lib/resolution/detail";

export const dynamic = "force-dynamic";

export const GET = withApi(disputeEndpoint, async ({ params }) => getDisputeDetail(params.id));
