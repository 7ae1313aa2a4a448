// The join's and the wallet mapping's derivations, checked against values Polymarket's own code and real Gamma
// responses pin (each vector names its source; docs/resolution.md lists them).
import { type Address, hashTypedData, hexToString, keccak256, stringToHex, zeroAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  NEG_RISK_ADAPTER,
  PROXY_WALLET_FACTORY,
  PROXY_WALLET_IMPLEMENTATION,
  PROXY_WALLET_INIT_CODE_HASH,
  SAFE_FACTORY,
  SAFE_INIT_CODE_HASH,
  SAFE_MASTER_COPY,
} from "@/lib/resolution/addresses";
import { adapterAncillaryData, adapterKind, appendInitializer, conditionIdOf, questionIdOf } from "@/lib/resolution/ids";
import {
  linkRequestsToQuestions,
  negRiskConditionId,
  negRiskMarketId,
  negRiskMarketIdOf,
  negRiskQuestionId,
  negRiskQuestionIndex,
} from "@/lib/resolution/neg-risk";
import { deriveProxyWallet, deriveSafeWallet, proxyWalletCreationCode, safeCreationCode, walletsOf } from "@/lib/resolution/wallets";
import { legacyBridgedAncillaryData, stampAncillaryData } from "@/lib/oracle/ancillary";

// Real Gamma markets, recorded in nautechsystems/nautilus_trader @ a95c8042:
// crates/adapters/polymarket/test_data/search_response.json (a standard market resolved by UmaCtfAdapterV4) and
// crates/adapters/polymarket/test_data/gamma_event.json (two markets of the neg-risk event
// democratic-presidential-nominee-2028).
const STANDARD = {
  resolvedBy: "0x65070BE91477460D8A7AeEb94ef92fe056C2f2A7" as Address,
  questionID: "0x17684e6f11ae8e8c6988baf218a76d8f1f186380b14dfe9ccc8a90ca0ab7dd43",
  conditionId: "0x647fe16b6b42c32554fe6c4a4e9f06c22547acd5a109cbe0de6c9bae43ec09a8",
} as const;
const NEG_RISK_EVENT = "0x2c3d7e0eee6f058be3006baabf0d54a07da254ba47fe6e3e095e7990c7814700";
const NEG_RISK = [
  {
    questionID: "0x2c3d7e0eee6f058be3006baabf0d54a07da254ba47fe6e3e095e7990c7814705",
    conditionId: "0xc8f1cf5d4f26e0fd9c8fe89f2a7b3263b902cf14fde7bfccef525753bb492e47",
    negRiskRequestID: "0x18656c0795d9f0282bd03185fb2dd1e88786bf1608c7c057db2508267c00bb29",
  },
  {
    questionID: "0x2c3d7e0eee6f058be3006baabf0d54a07da254ba47fe6e3e095e7990c7814707",
    conditionId: "0xe39adea057926dc197fe30a441f57a340b2a232d5a687010f78bba9b6e02620f",
    negRiskRequestID: "0xc248b2d29bf26ab66fbd21258a30d70d9063fd4132226609c944d8828764ba59",
  },
] as const;

describe("questionID and conditionId", () => {
  it("appends the initializer exactly as AncillaryDataLib does (Polymarket/uma-ctf-adapter src/test/dev/AdapterHelper.sol)", () => {
    // The adapter's own test question: bytes of 'q: title: Will it rain in NYC on Wednesday, description: …'.
    const ancillary =
      "0x713a207469746c653a2057696c6c206974207261696e20696e204e5943206f6e205765646e65736461792c206465736372697074696f6e3a2057696c6c206974207261696e20696e204e5943206f6e205765646e6573646179";
    const admin: Address = "0xAbCdEf0123456789aBcDeF0123456789abCDef01";
    const appended = appendInitializer(ancillary, admin);
    expect(hexToString(appended)).toBe(
      "q: title: Will it rain in NYC on Wednesday, description: Will it rain in NYC on Wednesday,initializer:abcdef0123456789abcdef0123456789abcdef01",
    );
    expect(questionIdOf(appended)).toBe(keccak256(appended));
  });

  it("derives a real standard market's conditionId from its adapter and questionID", () => {
    expect(conditionIdOf(STANDARD.resolvedBy, STANDARD.questionID)).toBe(STANDARD.conditionId);
    expect(adapterKind(STANDARD.resolvedBy)).toBe("standard");
  });

  it("recovers the adapter's ancillary data byte for byte from the DVM's stamped and legacy bridged forms", () => {
    const original = appendInitializer(
      stringToHex("q: title: Will A win?, description: ooRequester: in the text, res_data: p1: 0"),
      STANDARD.resolvedBy,
    );
    const stamped = stampAncillaryData(original, STANDARD.resolvedBy);
    const legacy = legacyBridgedAncillaryData(stamped, "0xeE3Afe347D5C74317041E2618C49534dAf887c24");
    expect(adapterAncillaryData(stamped)).toBe(original);
    expect(adapterAncillaryData(legacy)).toBe(original);
    expect(adapterAncillaryData(original)).toBe(original);
    expect(questionIdOf(adapterAncillaryData(legacy))).toBe(questionIdOf(original));
  });
});

describe("neg-risk ids (Polymarket/neg-risk-ctf-adapter NegRiskIdLib, NegRiskAdapter.getConditionId)", () => {
  it("derives real neg-risk markets' conditionIds from the NegRiskAdapter and their questionID", () => {
    for (const market of NEG_RISK) {
      expect(negRiskConditionId(market.questionID)).toBe(market.conditionId);
      expect(conditionIdOf(NEG_RISK_ADAPTER, market.questionID)).toBe(market.conditionId);
    }
  });

  it("splits a question id into the event's market id and the question index", () => {
    expect(NEG_RISK.map((m) => negRiskMarketIdOf(m.questionID))).toEqual([NEG_RISK_EVENT, NEG_RISK_EVENT]);
    expect(NEG_RISK.map((m) => negRiskQuestionIndex(m.questionID))).toEqual([5, 7]);
    expect(negRiskQuestionId(NEG_RISK_EVENT, 5)).toBe(NEG_RISK[0].questionID);
    expect(() => negRiskQuestionId(NEG_RISK_EVENT, 256)).toThrow(RangeError);
  });

  it("zeroes the last byte of keccak(abi.encode(oracle, feeBips, metadata)) for a market id", () => {
    const id = negRiskMarketId("0x71523d0f655B41E805Cec45b17163f528B59B820", 0, stringToHex("metadata"));
    expect(id).toMatch(/^0x[0-9a-f]{62}00$/);
    expect(negRiskMarketIdOf(negRiskQuestionId(id, 3))).toBe(id);
  });

  it("maps the operator's requestId (the UMA adapter's questionID) to the neg-risk question", () => {
    const links = linkRequestsToQuestions([
      { marketId: NEG_RISK_EVENT, questionId: negRiskQuestionId(NEG_RISK_EVENT, 0), requestId: `0x${"0".repeat(64)}`, questionIndex: 0 },
      { marketId: NEG_RISK_EVENT, questionId: NEG_RISK[0].questionID, requestId: NEG_RISK[0].negRiskRequestID, questionIndex: 5 },
    ]);
    expect([...links.keys()]).toEqual([NEG_RISK[0].negRiskRequestID]);
    expect(links.get(NEG_RISK[0].negRiskRequestID)?.conditionId).toBe(NEG_RISK[0].conditionId);
  });
});

describe("Polymarket wallets", () => {
  // Hardhat/anvil account 0: the owner in Polymarket/builder-relayer-client tests/signatures/index.test.ts.
  const PRIVATE_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
  const OWNER: Address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

  it("recomputes both init-code hashes from the creation code in Polymarket/ctf-exchange PolyProxyLib and PolySafeLib", () => {
    expect(keccak256(proxyWalletCreationCode(PROXY_WALLET_FACTORY, PROXY_WALLET_IMPLEMENTATION))).toBe(PROXY_WALLET_INIT_CODE_HASH);
    expect(keccak256(safeCreationCode(SAFE_MASTER_COPY))).toBe(SAFE_INIT_CODE_HASH);
  });

  it("derives the Safe that Polymarket's relayer client signs for (expectedSafeTxnSig in its tests)", async () => {
    // buildSafeTransactionRequest signs the SafeTx hash whose EIP-712 domain is the owner's derived Safe; the
    // test pins the signature, so only the right Safe address reproduces it.
    const safe = deriveSafeWallet(OWNER);
    const hash = hashTypedData({
      domain: { chainId: 137, verifyingContract: safe },
      primaryType: "SafeTx",
      types: {
        SafeTx: [
          { name: "to", type: "address" },
          { name: "value", type: "uint256" },
          { name: "data", type: "bytes" },
          { name: "operation", type: "uint8" },
          { name: "safeTxGas", type: "uint256" },
          { name: "baseGas", type: "uint256" },
          { name: "gasPrice", type: "uint256" },
          { name: "gasToken", type: "address" },
          { name: "refundReceiver", type: "address" },
          { name: "nonce", type: "uint256" },
        ],
      },
      message: {
        to: "0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174",
        value: 0n,
        data: "0x095ea7b30000000000000000000000004d97dcd97ec945f40cf65f87097ace5ea0476045ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        operation: 0,
        safeTxGas: 0n,
        baseGas: 0n,
        gasPrice: 0n,
        gasToken: zeroAddress,
        refundReceiver: zeroAddress,
        nonce: 0n,
      },
    });
    const signature = await privateKeyToAccount(PRIVATE_KEY).signMessage({ message: { raw: hash } });
    // splitAndPackSig: v 27/28 -> 31/32 (Gnosis' eth_sign marker).
    const packed = signature.slice(0, -2) + (parseInt(signature.slice(-2), 16) + 4).toString(16);
    expect(packed).toBe(
      "0xf368488355b0566e99eff3bccc35e98b77d8f3a6e6866176188488c34f0305b07e4a4c600c7a1592e4ac1e96b5887ebff2cb26987a3ad501006b39944df098c21f",
    );
    expect(safe).toBe("0xd93B25cb943D14d0d34FBaF01Fc93a0f8b5F6E47");
  });

  it("derives the proxy wallet with the factory's salt keccak256(abi.encodePacked(owner))", () => {
    expect(deriveProxyWallet(OWNER)).toBe("0x365f0CA36Ae1f641E02fE3B7743673da42A13A70");
    expect(walletsOf(OWNER).map((w) => w.kind)).toEqual(["same_address", "proxy", "safe"]);
    expect(new Set(walletsOf(OWNER).map((w) => w.address)).size).toBe(3);
    expect(deriveProxyWallet(OWNER, SAFE_FACTORY)).not.toBe(deriveProxyWallet(OWNER));
  });
});
