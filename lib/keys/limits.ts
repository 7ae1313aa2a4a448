// Constants both the key-request intake and its API contract state (kept apart from the intake, which opens the
// database, so contracts stay free of side effects).

/** Filing a request is free and unauthenticated: a small per-address budget keeps one client from flooding the queue. */
export const KEY_REQUESTS_PER_ADDRESS_PER_MINUTE = 5;
