// Ancillary-data decoding on real-format strings (Polymarket's SDK format, UMA's stamps, the bridge's forms).
import { keccak256, stringToHex, toHex } from "viem";
import { describe, expect, it } from "vitest";
import {
  decodeAncillaryData,
  decodeIdentifier,
  dvmRequestId,
  legacyBridgedAncillaryData,
  parseCompressed,
  parsePolymarketText,
  stampAncillaryData,
} from "@/lib/oracle/ancillary";

const ADAPTER = "0x6A9D222616C90FcA5754cd1333cFD9b7fb6a4F74";
const OOV2 = "0xeE3Afe347D5C74317041E2618C49534dAf887c24";
const RES =
  "res_data: p1: 0, p2: 1, p3: 0.5. Where p1 corresponds to No, p2 to Yes, p3 to unknown. This request MUST only resolve to p1 or p2. " +
  "Updates made by the question creator via the bulletin board at 0x2F5e3684cb1F318ec51b00Edba38d79Ac2c0aA9d should be considered.";
const real =
  "q: title: Will another person win the 2026 Lyon mayoral election?, description: The 2026 Lyon municipal election is scheduled " +
  `for March 2026. market_id: 681406 ${RES},initializer:91430cad2d3975766499717fa0d66a78d814e5c5`;

describe("ancillary data", () => {
  it("reads title, description, market id and initializer from Polymarket's format", () => {
    const q = parsePolymarketText(decodeAncillaryData(stringToHex(real)));
    expect(q.title).toBe("Will another person win the 2026 Lyon mayoral election?");
    expect(q.description).toBe("The 2026 Lyon municipal election is scheduled for March 2026. market_id: 681406");
    expect(q.marketId).toBe("681406");
    expect(q.initializer?.toLowerCase()).toBe("0x91430cad2d3975766499717fa0d66a78d814e5c5");
  });

  it("keeps commas, quotes and colons inside a title", () => {
    const title = 'Will "Team A" beat Team B, C, or D: the "final", 2026?';
    const q = parsePolymarketText(
      `q: title: ${title}, description: Commas, "quotes", and: colons. ${RES},initializer:91430cad2d3975766499717fa0d66a78d814e5c5`,
    );
    expect(q.title).toBe(title);
    expect(q.description).toBe('Commas, "quotes", and: colons.');
  });

  it("ends the title at res_data when the description is missing", () => {
    const q = parsePolymarketText(`q: title: Will it rain in Lyon on June 1?, ${RES},initializer:91430cad2d3975766499717fa0d66a78d814e5c5`);
    expect(q.title).toBe("Will it rain in Lyon on June 1?");
    expect(q.description).toBeNull();
  });

  it("ends the title at the appended keys when there is neither description nor res_data", () => {
    const text = decodeAncillaryData(stampAncillaryData(stringToHex("q: title: Bare question?"), ADAPTER));
    const q = parsePolymarketText(text);
    expect(q.title).toBe("Bare question?");
    expect(q.ooRequester).toBe(ADAPTER);
  });

  it("decodes non-UTF-8 bytes as U+FFFD and drops NULs instead of failing", () => {
    const bytes =
      `0x${Buffer.concat([Buffer.from("q: title: Will Café "), Buffer.from([0xff, 0xfe, 0x00]), Buffer.from(" open?, description: x res_data: p1: 0")]).toString("hex")}` as const;
    const q = parsePolymarketText(decodeAncillaryData(bytes));
    expect(q.title).toBe("Will Café \uFFFD\uFFFD open?");
  });

  it("returns no title for text that is not a Polymarket question", () => {
    expect(parsePolymarketText("q: What was the average ETH/USD price on 2026-06-01?").title).toBeNull();
  });

  it("reads MULTIPLE_VALUES JSON questions", () => {
    const q = parsePolymarketText(JSON.stringify({ title: "Who wins, A or B?", description: "d", labels: ["A", "B"] }));
    expect(q).toMatchObject({ title: "Who wins, A or B?", description: "d" });
  });

  it("stamps ooRequester and the legacy bridge suffix as UMA's contracts do", () => {
    const stamped = stampAncillaryData(stringToHex("q: title: X?"), ADAPTER);
    expect(decodeAncillaryData(stamped)).toBe("q: title: X?,ooRequester:6a9d222616c90fca5754cd1333cfd9b7fb6a4f74");
    expect(decodeAncillaryData(stampAncillaryData("0x", ADAPTER))).toBe("ooRequester:6a9d222616c90fca5754cd1333cfd9b7fb6a4f74");
    const legacy = decodeAncillaryData(legacyBridgedAncillaryData(stamped, OOV2));
    expect(legacy).toBe(
      "q: title: X?,ooRequester:6a9d222616c90fca5754cd1333cfd9b7fb6a4f74,childRequester:ee3afe347d5c74317041e2618c49534daf887c24,childChainId:137",
    );
    expect(parsePolymarketText(legacy)).toMatchObject({ title: "X?", ooRequester: ADAPTER, childRequester: OOV2, childChainId: 137 });
  });

  it("parses the compressed bridged form, which carries no text, and links it by parentRequestId", () => {
    const stamped = stampAncillaryData(stringToHex(real), ADAPTER);
    const hash = keccak256(stamped).slice(2);
    const compressed = `ancillaryDataHash:${hash},childBlockNumber:71234567,childOracle:ac60353a54873c446101216829a6a98cdbbc3f3d,childRequester:ee3afe347d5c74317041e2618c49534daf887c24,childChainId:137`;
    const ref = parseCompressed(decodeAncillaryData(stringToHex(compressed)));
    expect(ref).toEqual({
      ancillaryDataHash: `0x${hash}`,
      childBlockNumber: 71234567n,
      childOracle: "0xac60353a54873c446101216829a6A98cDbbC3f3D",
      childRequester: OOV2,
      childChainId: 137,
    });
    expect(ref!.ancillaryDataHash).toBe(keccak256(stamped));
    expect(parsePolymarketText(compressed).title).toBeNull();
    expect(parseCompressed(real)).toBeNull();
    const identifier = stringToHex("YES_OR_NO_QUERY", { size: 32 });
    expect(decodeIdentifier(identifier)).toBe("YES_OR_NO_QUERY");
    expect(dvmRequestId(identifier, 1n, stringToHex(compressed))).toMatch(/^0x[0-9a-f]{64}$/);
    expect(dvmRequestId(identifier, 1n, stringToHex(compressed))).not.toBe(dvmRequestId(identifier, 2n, stringToHex(compressed)));
    expect(toHex(1)).toBe("0x1");
  });
});
