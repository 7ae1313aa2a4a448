import { summaryEndpoint } from "@/lib/api/endpoints/oracle";
import { withApi } from "@/lib/api/with-api";
import { chainAnswer, getOracleSummary } from "@/lib/oracle/service";

export const dynamic = "force-dynamic";

export const GET = withApi(summaryEndpoint, async () => chainAnswer(await getOracleSummary()));
