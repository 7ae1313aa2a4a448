import type { ServerResponse } from "node:http";

export interface BodyHandOff {
  /** Runs Next's handler for this response in its own slot. */
  run: (response: ServerResponse, handle: () => void) => void;
  /** Claims the current request's body (true), or false outside `run` or once the response started. */
  takeBody: (start: (response: ServerResponse) => void) => boolean;
}
export function createBodyHandOff(): BodyHandOff;
