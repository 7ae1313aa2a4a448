import { votersEndpoint } from "@/lib/api/endpoints/oracle";
import { withApi } from "@/lib/api/with-api";
import { cacheControl, getOracleVoters } from "@/lib/oracle/service";

export const dynamic = "force-dynamic";

export const GET = withApi(votersEndpoint, async ({ query, headers }) => {
  const { cached, body } = await getOracleVoters(query);
  headers.set("Cache-Control", cacheControl(cached));
  return body;
});
