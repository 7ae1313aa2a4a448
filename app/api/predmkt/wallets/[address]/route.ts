import { walletEndpoint } from "@/lib/api/endpoints/wallets";
import { withApi } from "@/lib/api/with-api";
import { walletSummary } from "@/lib/wallets/answers";

export const dynamic = "force-dynamic";

// GET /api/predmkt/wallets/{address} – reconciled PnL, figures and labels from the wallet's ledger
export const GET = withApi(walletEndpoint, ({ params }) => walletSummary(params.address));
