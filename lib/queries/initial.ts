// Server side of the first paint: pages call the lib/ services directly (no HTTP hop to ourselves) and hand the
// result, or a description of the failure, to client components as plain JSON.
import { randomUUID } from "node:crypto";
import { ApiError, isUpstreamFailure, publicDetail } from "@/lib/api/errors";
import { log, errorFields } from "@/lib/log";
import { withTimeout } from "@/lib/timeout";
import type { Envelope, Initial } from "./types";

/** Runs a service call for a page; a failure becomes data for a calm message, never a broken page. */
export async function initialFrom<T>(load: () => Promise<{ data: unknown; meta: unknown }>, timeoutMs = 10_000): Promise<Initial<T>> {
  try {
    const result = await withTimeout(load(), timeoutMs, () => new ApiError("upstream_timeout", "The data source took too long to answer."));
    // Only `data` and `meta` travel to the client (live bodies also carry their Cache-Control string).
    const body = JSON.parse(JSON.stringify({ data: result.data, meta: result.meta })) as Envelope<T>;
    return { ok: true, body };
  } catch (error) {
    if (error instanceof ApiError) {
      // An upstream failure's own text (hosts, URLs) goes to the log; the page names the upstream (lib/api/errors.ts).
      const requestId = randomUUID();
      if (isUpstreamFailure(error)) log.warn("dashboard first paint: upstream failure", { request_id: requestId, ...errorFields(error) });
      return { ok: false, error: { status: error.status, code: error.code, detail: publicDetail(error, requestId) } };
    }
    log.warn("dashboard first paint failed", errorFields(error));
    return { ok: false, error: { status: 503, code: "service_unavailable", detail: "This data is unavailable right now." } };
  }
}
