import { walletPositionsEndpoint } from "@/lib/api/endpoints/wallets";
import { withApi } from "@/lib/api/with-api";
import { walletPositions } from "@/lib/wallets/answers";

export const dynamic = "force-dynamic";

// GET /api/predmkt/wallets/{address}/positions – positions held or once held, from the ledger
export const GET = withApi(walletPositionsEndpoint, ({ params, query }) => walletPositions(params.address, query));
