// SPDX-License-Identifier: AGPL-3.0-only
pragma solidity ^0.8.20;

import "./AncillaryStrings.sol";

// A test double of UMA's OracleChildTunnel on Polygon as deployed since 2025-04: it sends mainnet only a compressed
// reference (`ancillaryDataHash:…,childBlockNumber:…,childOracle:…,childRequester:…,childChainId:…`) and keeps the
// full question text in its PriceRequestBridged event. That event and compressAncillaryData have the real signatures.
contract MockOracleChildTunnel {
    event PriceRequestBridged(address indexed requester, bytes32 identifier, uint256 time, bytes ancillaryData, bytes32 indexed childRequestId, bytes32 indexed parentRequestId);

    mapping(bytes32 => bytes32) public childRequestIds;

    function compressAncillaryData(bytes memory ancillaryData, address requester, uint256 requestBlockNumber) public view returns (bytes memory) {
        bytes memory out = AncillaryStrings.append("", "ancillaryDataHash", AncillaryStrings.toHex(keccak256(ancillaryData)));
        out = AncillaryStrings.append(out, "childBlockNumber", AncillaryStrings.toDecimal(requestBlockNumber));
        out = AncillaryStrings.append(out, "childOracle", AncillaryStrings.toHex(address(this)));
        out = AncillaryStrings.append(out, "childRequester", AncillaryStrings.toHex(requester));
        return AncillaryStrings.append(out, "childChainId", AncillaryStrings.toDecimal(block.chainid));
    }

    function requestPrice(bytes32 identifier, uint256 time, bytes memory ancillaryData) external {
        bytes memory compressed = compressAncillaryData(ancillaryData, msg.sender, block.number);
        bytes32 childRequestId = keccak256(abi.encode(msg.sender, identifier, time, ancillaryData));
        bytes32 parentRequestId = keccak256(abi.encode(identifier, time, compressed));
        childRequestIds[parentRequestId] = childRequestId;
        emit PriceRequestBridged(msg.sender, identifier, time, ancillaryData, childRequestId, parentRequestId);
    }
}
