// An endpoint contract: path, method, parameter and response schemas, and the words users read in the OpenAPI
// document. Route handlers validate with it (withApi) and lib/api/openapi.ts documents it: one source of truth.
import type { z } from "zod";

export type Access = "key" | "public";

export interface EndpointContract<
  Q extends z.ZodObject | undefined = z.ZodObject | undefined,
  P extends z.ZodObject | undefined = z.ZodObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
  A extends Access = Access,
> {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** OpenAPI-style path, e.g. `/api/predmkt/events/{slug}`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  /** `key`: behind the gateway (API key or JWT). `public`: no credentials. */
  access: A;
  query?: Q;
  params?: P;
  body?: B;
  response: R;
  /** Media type of a success that is not JSON (e.g. `text/event-stream`); the response schema describes it. */
  contentType?: string;
  /** Status of a success when it is not 200 (201 for a created resource, 204 for a deletion: no body). */
  successStatus?: 200 | 201 | 204;
  /** Media types the body may be sent as, besides JSON (`application/x-www-form-urlencoded` for HTML forms). */
  bodyMediaTypes?: string[];
  /** Extra documented error statuses besides the ones every keyed endpoint has. */
  errors?: number[];
}

export function defineEndpoint<
  R extends z.ZodType,
  A extends Access,
  Q extends z.ZodObject | undefined = undefined,
  P extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(contract: EndpointContract<Q, P, B, R, A>): EndpointContract<Q, P, B, R, A> {
  return contract;
}
