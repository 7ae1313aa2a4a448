import { disputesEndpoint } from "@/lib/api/endpoints/oracle-disputes";
import { withApi } from "@/lib/api/with-api";
import { getDisputesWithMarkets } from "@/lib/resolution/joined-disputes";

export const dynamic = "force-dynamic";

export const GET = withApi(disputesEndpoint, async () => getDisputesWithMarkets());
