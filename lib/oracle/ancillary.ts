// Decoding UMA ancillary data: bytes → text (invalid UTF-8 becomes U+FFFD, NULs dropped), Polymarket's question
// format (`q: title: …, description: … res_data: …,initializer:…`), and the forms a Polygon request takes on mainnet:
// legacy cleartext with `,childRequester:…,childChainId:137` appended, or (since 2025-04) a compressed reference
// that carries only a hash of the text (docs/oracle-facts.md#ancillary-data).
import {
  type Hex,
  encodeAbiParameters,
  encodePacked,
  getAddress,
  hexToBytes,
  hexToString,
  keccak256,
  stringToHex,
  type Address,
} from "viem";

const decoder = new TextDecoder("utf-8", { fatal: false });

export function decodeAncillaryData(data: Hex): string {
  return decoder.decode(hexToBytes(data)).replace(/\u0000/g, "");
}

export function decodeIdentifier(identifier: Hex): string {
  return hexToString(identifier).replace(/\u0000+$/, "");
}

interface PolymarketQuestion {
  title: string | null;
  description: string | null;
  marketId: string | null;
  initializer: Address | null;
  ooRequester: Address | null;
  childRequester: Address | null;
  childChainId: number | null;
}

const addressAfter = (text: string, key: string): Address | null => {
  const match = new RegExp(`(?:^|,)${key}:(?:0x)?([0-9a-fA-F]{40})(?=,|$)`).exec(text);
  return match ? getAddress(`0x${match[1]}`) : null;
};

// Keys UMA's contracts append with `,key:value`; they end the question text.
const APPENDED_KEYS = /,(?:initializer|ooRequester|childRequester|childChainId):/;

export function parsePolymarketText(text: string): PolymarketQuestion {
  const appended = APPENDED_KEYS.exec(text);
  const body = appended ? text.slice(0, appended.index) : text;
  const chainMatch = /(?:^|,)childChainId:(\d+)(?=,|$)/.exec(text);
  const result: PolymarketQuestion = {
    title: null,
    description: null,
    marketId: /\bmarket_id:\s*(\d+)/.exec(body)?.[1] ?? null,
    initializer: addressAfter(text, "initializer"),
    ooRequester: addressAfter(text, "ooRequester"),
    childRequester: addressAfter(text, "childRequester"),
    childChainId: chainMatch ? Number(chainMatch[1]) : null,
  };
  // MULTIPLE_VALUES requests are JSON {title, description, labels}.
  const trimmed = body.trim();
  if (trimmed.startsWith("{")) {
    try {
      const json = JSON.parse(trimmed) as { title?: unknown; description?: unknown };
      if (typeof json.title === "string") result.title = json.title.trim();
      if (typeof json.description === "string") result.description = json.description.trim();
      return result;
    } catch {
      // not JSON after all: fall through to the text format
    }
  }
  const titleAt = body.indexOf("title:");
  if (titleAt === -1) return result;
  const afterTitle = body.slice(titleAt + "title:".length);
  // A title may itself hold commas and quotes: it ends only at the `description:` key, else at `res_data:`.
  // (UMA's dapp uses indexOf(...) ?? length here, which never falls back on -1; both ends are checked explicitly.)
  const descriptionAt = afterTitle.search(/,?\s*description:/);
  const resDataAt = afterTitle.search(/,?\s*res_data:/);
  const end = descriptionAt !== -1 ? descriptionAt : resDataAt !== -1 ? resDataAt : afterTitle.length;
  result.title = afterTitle.slice(0, end).trim().replace(/,$/, "").trim() || null;
  if (descriptionAt !== -1) {
    const afterDescription = afterTitle.slice(descriptionAt).replace(/^,?\s*description:/, "");
    const descriptionEnd = afterDescription.search(/\s*res_data:/);
    result.description = (descriptionEnd === -1 ? afterDescription : afterDescription.slice(0, descriptionEnd)).trim() || null;
  }
  return result;
}

export interface CompressedReference {
  ancillaryDataHash: Hex;
  childBlockNumber: bigint;
  childOracle: Address;
  childRequester: Address;
  childChainId: number;
}

const COMPRESSED =
  /^ancillaryDataHash:([0-9a-fA-F]{64}),\s*childBlockNumber:(\d+),\s*childOracle:([0-9a-fA-F]{40}),\s*childRequester:([0-9a-fA-F]{40}),\s*childChainId:(\d+)$/;

/** The compressed form OracleChildTunnel sends to mainnet since 2025-04; null for any other text. */
export function parseCompressed(text: string): CompressedReference | null {
  const m = COMPRESSED.exec(text.trim());
  if (!m) return null;
  return {
    ancillaryDataHash: `0x${m[1].toLowerCase()}`,
    childBlockNumber: BigInt(m[2]),
    childOracle: getAddress(`0x${m[3]}`),
    childRequester: getAddress(`0x${m[4]}`),
    childChainId: Number(m[5]),
  };
}

const hexNo0x = (address: Address) => address.slice(2).toLowerCase();

/** OOv2's _stampAncillaryData: what the DVM (and the child tunnel) receive from a requester's question. */
export function stampAncillaryData(ancillaryData: Hex, requester: Address): Hex {
  const suffix = `${ancillaryData === "0x" ? "" : ","}ooRequester:${hexNo0x(requester)}`;
  return `${ancillaryData}${stringToHex(suffix).slice(2)}` as Hex;
}

/** The pre-2025 child tunnel's form on mainnet: the stamped text plus where it came from, in cleartext. */
export function legacyBridgedAncillaryData(stamped: Hex, childRequester: Address, childChainId = 137): Hex {
  return `${stamped}${stringToHex(`,childRequester:${hexNo0x(childRequester)},childChainId:${childChainId}`).slice(2)}` as Hex;
}

/** VotingV2's request key: keccak256(abi.encode(identifier, time, ancillaryData)); also the tunnel's parentRequestId. */
export function dvmRequestId(identifier: Hex, time: bigint, ancillaryData: Hex): Hex {
  return keccak256(encodeAbiParameters([{ type: "bytes32" }, { type: "uint256" }, { type: "bytes" }], [identifier, time, ancillaryData]));
}

/** OOv2's request key: keccak256(abi.encodePacked(requester, identifier, timestamp, ancillaryData)). */
export function optimisticOracleRequestId(requester: Address, identifier: Hex, timestamp: bigint, ancillaryData: Hex): Hex {
  return keccak256(encodePacked(["address", "bytes32", "uint256", "bytes"], [requester, identifier, timestamp, ancillaryData]));
}

const OO_REQUESTER_KEY = stringToHex(",ooRequester:").slice(2).toLowerCase();

/**
 * The requester's ancillary data inside a form UMA stamped on its way to the DVM: OOv2 appends `,ooRequester:<adapter>`
 * and the legacy child tunnel then `,childRequester:…,childChainId:…`. Cut at the last `,ooRequester:` on a byte
 * boundary, so the question text itself (which may contain anything) is kept byte for byte. Data without the stamp
 * is returned unchanged (docs/resolution.md, "The join", step 2).
 */
export function adapterAncillaryData(stampedOrRaw: Hex): Hex {
  const body = stampedOrRaw.slice(2).toLowerCase();
  for (let at = body.lastIndexOf(OO_REQUESTER_KEY); at !== -1; at = body.lastIndexOf(OO_REQUESTER_KEY, at - 1)) {
    if (at % 2 === 0) return `0x${stampedOrRaw.slice(2, 2 + at)}`;
    if (at === 0) break;
  }
  return stampedOrRaw;
}
