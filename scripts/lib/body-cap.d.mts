import type { IncomingMessage, ServerResponse } from "node:http";

export function capRequestBody(request: IncomingMessage, response: ServerResponse, maxBytes: number): boolean;
export function maxBodyBytes(raw?: string): number;
