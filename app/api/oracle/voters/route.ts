import { votersEndpoint } from "@/lib/api/endpoints/oracle";
import { withApi } from "@/lib/api/with-api";
import { chainAnswer, getOracleVoters } from "@/lib/oracle/service";

export const dynamic = "force-dynamic";

export const GET = withApi(votersEndpoint, async ({ query }) => chainAnswer(await getOracleVoters(query)));
