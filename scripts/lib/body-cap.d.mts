import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

export interface Linger {
  maxMs: number;
  idleMs: number;
  maxBytes: number;
}
export interface BodyCapOptions {
  maxBytes: number;
  timeoutMs: number;
  linger?: Linger;
  onRefused?: (fields: Record<string, unknown>) => void;
}
type Handler = (request: IncomingMessage, response: ServerResponse) => void;
type RefusalCode = "payload_too_large" | "request_timeout";

export const LINGER: Linger;
export const REFUSAL_HEADERS: Record<string, string>;
export function capBodies(server: Server, handler: Handler, options: BodyCapOptions): void;
export function bodyCapListener(handler: Handler, options: BodyCapOptions): Handler;
export function problemBody(
  code: RefusalCode,
  detail: string,
  requestId: string,
): { type: string; title: string; status: number; detail: string; code: RefusalCode; request_id: string };
export function lingeringClose(socket: Socket, linger: Linger): void;
export function maxBodyBytes(raw?: string): number;
export function bodyTimeoutMs(raw?: string): number;
