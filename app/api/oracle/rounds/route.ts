import { roundsEndpoint } from "@/lib/api/endpoints/oracle";
import { withApi } from "@/lib/api/with-api";
import { chainAnswer, getOracleRounds } from "@/lib/oracle/service";

export const dynamic = "force-dynamic";

export const GET = withApi(roundsEndpoint, async () => chainAnswer(await getOracleRounds()));
