import { walletActivityEndpoint } from "@/lib/api/endpoints/wallets";
import { withApi } from "@/lib/api/with-api";
import { walletActivity } from "@/lib/wallets/answers";

export const dynamic = "force-dynamic";

// GET /api/predmkt/wallets/{address}/activity – the ledger, newest first
export const GET = withApi(walletActivityEndpoint, ({ params, query }) => walletActivity(params.address, query));
