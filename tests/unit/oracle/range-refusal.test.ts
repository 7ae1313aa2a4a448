// The errors that make the log scan cut its eth_getLogs range: providers' range and result refusals, and a range
// whose logs exceed the client's own response cap (found at the oracle bench's mainnet scale).
import { describe, expect, it } from "vitest";
import { ResponseBodyTooLargeError, RpcRequestError } from "viem";
import { rangeRefusal } from "@/lib/oracle/scan";

describe("rangeRefusal", () => {
  it("cuts the range when the response exceeds the client's size cap", () => {
    expect(rangeRefusal(new ResponseBodyTooLargeError({ maxSize: 10_485_760, size: 12_000_000 }))).toEqual({ suggestedTo: null });
  });

  it("takes a provider's suggested range, and ignores errors that smaller ranges cannot fix", () => {
    const alchemy = new RpcRequestError({
      body: {},
      url: "http://rpc",
      error: { code: -32602, message: "Log response size exceeded. this block range should work: [0x10, 0x1f]" },
    });
    expect(rangeRefusal(alchemy)).toEqual({ suggestedTo: 0x1fn });
    const pruned = new RpcRequestError({
      body: {},
      url: "http://rpc",
      error: { code: -32000, message: "History has been pruned for this block" },
    });
    expect(rangeRefusal(pruned)).toBeNull();
  });
});
