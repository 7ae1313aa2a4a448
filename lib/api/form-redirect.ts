// HTML forms without JavaScript. A browser that posts a form navigates to whatever the endpoint answers, so a JSON
// answer would leave the visitor on a page of JSON. For a browser form post (url-encoded body, HTML accepted) the API
// route's answer is turned into a 303 back to the form's page (Post/Redirect/Get): the success's fields, or the
// problem's field errors with the submitted values so the page can show them next to the fields. Scripts and the
// page's own script (which ask for JSON) get the API's answer unchanged.
import type { NextRequest } from "next/server";
import type { ParameterError } from "./errors";

type RouteHandler<Ctx> = (request: NextRequest, context: Ctx) => Promise<Response>;

/** What the page reads back from `?form=`: the field errors and the values to refill the form with. */
interface FormState {
  errors: ParameterError[];
  values: Record<string, string>;
}

function encodeFormState(state: FormState): string {
  return Buffer.from(JSON.stringify(state)).toString("base64url");
}

/** The state a redirect carried, or null when the parameter is missing or not ours. */
export function decodeFormState(encoded: string | undefined): FormState | null {
  if (!encoded) return null;
  try {
    const state = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8")) as FormState;
    if (!Array.isArray(state.errors) || typeof state.values !== "object" || state.values === null) return null;
    const errors = state.errors.filter((e) => typeof e?.parameter === "string" && typeof e?.detail === "string");
    const values = Object.fromEntries(Object.entries(state.values).filter(([, v]) => typeof v === "string"));
    return { errors, values };
  } catch {
    return null;
  }
}

function isBrowserFormPost(request: Request): boolean {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  const accept = (request.headers.get("accept") ?? "").toLowerCase();
  return type.startsWith("application/x-www-form-urlencoded") && accept.includes("text/html");
}

function seeOther(location: string, source: Response): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  const requestId = source.headers.get("x-request-id");
  if (requestId) headers.set("X-Request-Id", requestId);
  return new Response(null, { status: 303, headers });
}

interface FormRedirectOptions {
  /** The page holding the form, e.g. `/api-access`. */
  page: string;
  /** Query parameters the page shows after a success, from the API's JSON answer. */
  onSuccess: (body: Record<string, unknown>) => Record<string, string>;
  /** Fields never echoed back (a honeypot). */
  omit?: string[];
}

export function withFormRedirect<Ctx>(options: FormRedirectOptions, api: RouteHandler<Ctx>): RouteHandler<Ctx> {
  return async (request, context) => {
    if (!isBrowserFormPost(request)) return api(request, context);
    const submitted = new URLSearchParams(await request.clone().text());
    const response = await api(request, context);
    if (response.status >= 200 && response.status < 300) {
      const query = new URLSearchParams(options.onSuccess((await response.json()) as Record<string, unknown>));
      return seeOther(`${options.page}?${query}`, response);
    }
    if (!(response.headers.get("content-type") ?? "").includes("problem+json")) return response;
    const problem = (await response.json()) as { detail?: string; errors?: ParameterError[] };
    const values: Record<string, string> = {};
    for (const [key, value] of submitted) if (!options.omit?.includes(key) && !(key in values)) values[key] = value;
    // A problem that names no field (rate limit, outage) is shown above the form.
    const errors = problem.errors?.length ? problem.errors : [{ parameter: "form", detail: problem.detail ?? "The request failed." }];
    return seeOther(`${options.page}?${new URLSearchParams({ form: encodeFormState({ errors, values }) })}`, response);
  };
}
