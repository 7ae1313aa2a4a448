// An endpoint contract: path, method, parameter and response schemas, and the words users read in the OpenAPI
// document. Route handlers validate with it (withApi) and lib/api/openapi.ts documents it: one source of truth.
import type { z } from "zod";

export type Access = "key" | "public";

export interface EndpointContract<
  Q extends z.ZodObject = z.ZodObject,
  P extends z.ZodObject = z.ZodObject,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: "GET" | "POST";
  /** OpenAPI-style path, e.g. `/api/predmkt/events/{slug}`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  /** `key`: behind the gateway (API key or JWT). `public`: no credentials. */
  access: Access;
  query?: Q;
  params?: P;
  body?: B;
  response: R;
  /** Extra documented error statuses besides the ones every keyed endpoint has. */
  errors?: number[];
}

export function defineEndpoint<Q extends z.ZodObject, P extends z.ZodObject, B extends z.ZodType, R extends z.ZodType>(
  contract: EndpointContract<Q, P, B, R>,
): EndpointContract<Q, P, B, R> {
  return contract;
}
