import { leaderboardEndpoint } from "@/lib/api/endpoints/wallets";
import { withApi } from "@/lib/api/with-api";
import { leaderboard } from "@/lib/wallets/leaderboard";

export const dynamic = "force-dynamic";

// GET /api/predmkt/leaderboard – Polymarket's leaderboard with our PnL beside it
export const GET = withApi(leaderboardEndpoint, ({ query }) => leaderboard(query));
