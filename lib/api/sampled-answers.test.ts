// The answers built after each pass are asked as clients ask them: every request text passes its contract's strict
// checks (a renamed parameter would otherwise only show as a logged failure after each pass), and the dashboard's
// movers requests are among them, in the order the dashboard sends their parameters.
import { describe, expect, it } from "vitest";
import { buildUrl } from "@/lib/queries/fetcher";
import { MOVER_WINDOWS, MOVERS_LIMIT } from "@/lib/queries/views";
import { DEFAULT_ANSWERS } from "./sampled-answers";
import { strictQuery } from "./strict-query";
import { parseOrThrow } from "./with-api";

describe("the default answers", () => {
  it("are valid requests of their endpoints", () => {
    const texts = DEFAULT_ANSWERS.flatMap(({ contract, requests }) =>
      requests.map((text) => {
        const url = new URL(text, "http://h");
        expect(url.pathname).toBe(contract.path);
        const raw = strictQuery(url, contract);
        if (contract.query) parseOrThrow(contract.query, raw, "query");
        return text;
      }),
    );
    expect(new Set(texts).size).toBe(texts.length);
  });

  it("include the dashboard's movers requests and the documented default call", () => {
    const movers = DEFAULT_ANSWERS.find(({ contract }) => contract.path === "/api/predmkt/movers")!.requests;
    for (const window of MOVER_WINDOWS) {
      expect(movers).toContain(buildUrl("/api/predmkt/movers", { window, limit: MOVERS_LIMIT }));
      expect(movers).toContain(`/api/predmkt/movers?window=${window}`);
    }
    expect(movers).toContain("/api/predmkt/movers");
  });
});
