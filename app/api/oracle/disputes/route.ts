import { disputesEndpoint } from "@/lib/api/endpoints/oracle";
import { withApi } from "@/lib/api/with-api";
import { cacheControl, getOracleDisputes } from "@/lib/oracle/service";

export const dynamic = "force-dynamic";

export const GET = withApi(disputesEndpoint, async ({ headers }) => {
  const { cached, body } = await getOracleDisputes();
  headers.set("Cache-Control", cacheControl(cached));
  return body;
});
