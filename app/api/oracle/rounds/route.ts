import { roundsEndpoint } from "@/lib/api/endpoints/oracle";
import { withApi } from "@/lib/api/with-api";
import { cacheControl, getOracleRounds } from "@/lib/oracle/service";

export const dynamic = "force-dynamic";

export const GET = withApi(roundsEndpoint, async ({ headers }) => {
  const { cached, body } = await getOracleRounds();
  headers.set("Cache-Control", cacheControl(cached));
  return body;
});
