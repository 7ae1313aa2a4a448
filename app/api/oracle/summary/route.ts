import { summaryEndpoint } from "@/lib/api/endpoints/oracle";
import { withApi } from "@/lib/api/with-api";
import { cacheControl, getOracleSummary } from "@/lib/oracle/service";

export const dynamic = "force-dynamic";

export const GET = withApi(summaryEndpoint, async ({ headers }) => {
  const { cached, body } = await getOracleSummary();
  headers.set("Cache-Control", cacheControl(cached));
  return body;
});
