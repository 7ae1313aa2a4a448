import { describe, expect, it } from "vitest";
import { operationForPath } from "./operations";

describe("operation names for usage metering", () => {
  it("maps a request path to its contract's path template", () => {
    expect(operationForPath("GET", "/api/predmkt/events/us-election-2028")).toBe("GET /api/predmkt/events/{slug}");
    expect(operationForPath("GET", "/api/predmkt/events")).toBe("GET /api/predmkt/events");
    expect(operationForPath("GET", "/api/predmkt/markets/123/history")).toBe("GET /api/predmkt/markets/{id}/history");
    expect(operationForPath("POST", "/api/auth/token")).toBe("POST /api/auth/token");
  });

  it("names unknown paths like the 404 route does, never by their raw path", () => {
    expect(operationForPath("GET", "/api/predmkt/nothing/here")).toBe("GET /api/{path}");
    expect(operationForPath("GET", "/api/predmkt/events/a/b/c")).toBe("GET /api/{path}");
  });
});
