// Polymarket trading wallets are CREATE2 deployments keyed by their owner's address, so "wallet W belongs to owner O"
// is a computation, not a guess (docs/resolution.md, "Proxy wallets"):
//   proxy wallet  salt = keccak256(abi.encodePacked(owner))  ProxyWalletFactory.makeWallet / PolyProxyLib
//   Safe          salt = keccak256(abi.encode(owner))        SafeProxyFactory.getSalt / PolySafeLib
// A wallet that matches a derivation was created for that owner; nothing else can produce the same address.
import {
  type Address,
  type Hex,
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  getCreate2Address,
  keccak256,
  parseAbi,
} from "viem";
import { PROXY_WALLET_FACTORY, PROXY_WALLET_INIT_CODE_HASH, SAFE_FACTORY, SAFE_INIT_CODE_HASH } from "./addresses";

/** Polymarket's proxy wallet for `owner` (deployed or not yet). */
export function deriveProxyWallet(
  owner: Address,
  factory: Address = PROXY_WALLET_FACTORY,
  initCodeHash: Hex = PROXY_WALLET_INIT_CODE_HASH,
) {
  return getCreate2Address({ from: factory, salt: keccak256(encodePacked(["address"], [owner])), bytecodeHash: initCodeHash });
}

/** Polymarket's Gnosis Safe for `owner` (deployed or not yet). */
export function deriveSafeWallet(owner: Address, factory: Address = SAFE_FACTORY, initCodeHash: Hex = SAFE_INIT_CODE_HASH) {
  return getCreate2Address({
    from: factory,
    salt: keccak256(encodeAbiParameters([{ type: "address" }], [owner])),
    bytecodeHash: initCodeHash,
  });
}

/**
 * The proxy factory's clone creation code (FactoryLib.computeCreationCode / ctf-exchange PolyProxyLib): a 99-byte
 * deployer that delegatecalls `cloneConstructor(bytes)` on the factory, then the calldata of that call.
 */
export function proxyWalletCreationCode(factory: Address, implementation: Address): Hex {
  const hex = (address: Address) => address.slice(2).toLowerCase();
  const deployer =
    `0x3d3d606380380380913d393d73${hex(factory)}5af4602a57600080fd5b602d8060366000396000f3363d3d373d3d3d363d73` +
    `${hex(implementation)}5af43d82803e903d91602b57fd5bf3`;
  const constructorCall = encodeFunctionData({
    abi: parseAbi(["function cloneConstructor(bytes)"]),
    functionName: "cloneConstructor",
    args: ["0x"],
  });
  return concat([deployer as Hex, constructorCall]);
}

/** GnosisSafeProxy creation code as Polymarket's factory deploys it (ctf-exchange PolySafeLib.proxyCreationCode). */
const GNOSIS_SAFE_PROXY_CREATION_CODE: Hex =
  "0x608060405234801561001057600080fd5b5060405161017138038061017183398101604081905261002f916100b9565b6001600160a01b0381166100945760405162461bcd60e51b815260206004820152602260248201527f496e76616c69642073696e676c65746f6e20616464726573732070726f766964604482015261195960f21b606482015260840160405180910390fd5b600080546001600160a01b0319166001600160a01b03929092169190911790556100e7565b6000602082840312156100ca578081fd5b81516001600160a01b03811681146100e0578182fd5b9392505050565b607c806100f56000396000f3fe6080604052600080546001600160a01b0316813563530ca43760e11b1415602857808252602082f35b3682833781823684845af490503d82833e806041573d82fd5b503d81f3fea264697066735822122015938e3bf2c49f5df5c1b7f9569fa85cc5d6f3074bb258a2dc0c7e299bc9e33664736f6c63430008040033";

/** SafeProxyFactory.getContractBytecode(): the proxy creation code followed by abi.encode(masterCopy). */
export function safeCreationCode(masterCopy: Address): Hex {
  return concat([GNOSIS_SAFE_PROXY_CREATION_CODE, encodeAbiParameters([{ type: "address" }], [masterCopy])]);
}

/** `same_address`: the voter's own address used directly on Polygon (certain only for a key-held account, see docs). */
export type WalletKind = "same_address" | "proxy" | "safe";

interface OwnedWallet {
  address: Address;
  kind: WalletKind;
}

/** The Polygon addresses through which `owner` can hold Polymarket positions: itself, its proxy wallet, its Safe. */
export function walletsOf(owner: Address): OwnedWallet[] {
  return [
    { address: owner, kind: "same_address" },
    { address: deriveProxyWallet(owner), kind: "proxy" },
    { address: deriveSafeWallet(owner), kind: "safe" },
  ];
}
