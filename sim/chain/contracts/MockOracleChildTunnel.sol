// SPDX-License-Identifier: AGPL-3.0-only
pragma solidity ^0.8.20;

import "./AncillaryStrings.sol";

// A test double of UMA's OracleChildTunnel on Polygon as deployed since 2025-04: it sends mainnet only a compressed
// reference (`ancillaryDataHash:…,childBlockNumber:…,childOracle:…,childRequester:…,childChainId:…`) and keeps the
// full question text in its PriceRequestBridged event. Events, compressAncillaryData and the request ids follow the
// real contract (sim/chain/SOURCES.md): the child request id is keccak256(abi.encode(identifier, time, ancillaryData))
// of what the requester sent (no requester in it), and a request already made (Requested or Resolved) is not sent
// again: no event at all.
contract MockOracleChildTunnel {
    enum RequestState {
        NeverRequested,
        Requested,
        Resolved
    }

    struct Price {
        RequestState state;
        int256 price;
    }

    event PriceRequestBridged(address indexed requester, bytes32 identifier, uint256 time, bytes ancillaryData, bytes32 indexed childRequestId, bytes32 indexed parentRequestId);
    event PriceRequestAdded(bytes32 indexed identifier, uint256 time, bytes ancillaryData, bytes32 indexed requestHash);
    event PushedPrice(bytes32 indexed identifier, uint256 time, bytes ancillaryData, int256 price, bytes32 indexed requestHash);

    mapping(bytes32 => bytes32) public childRequestIds;
    mapping(bytes32 => Price) internal prices;

    function compressAncillaryData(bytes memory ancillaryData, address requester, uint256 requestBlockNumber) public view returns (bytes memory) {
        bytes memory out = AncillaryStrings.append("", "ancillaryDataHash", AncillaryStrings.toHex(keccak256(ancillaryData)));
        out = AncillaryStrings.append(out, "childBlockNumber", AncillaryStrings.toDecimal(requestBlockNumber));
        out = AncillaryStrings.append(out, "childOracle", AncillaryStrings.toHex(address(this)));
        out = AncillaryStrings.append(out, "childRequester", AncillaryStrings.toHex(requester));
        return AncillaryStrings.append(out, "childChainId", AncillaryStrings.toDecimal(block.chainid));
    }

    function requestPrice(bytes32 identifier, uint256 time, bytes memory ancillaryData) external {
        bytes32 childRequestId = _encodePriceRequest(identifier, time, ancillaryData);
        Price storage lookup = prices[childRequestId];
        // Sent to mainnet only once: a second dispute with the same identifier, DVM time and stamped text (or one whose
        // price already came back) bridges nothing.
        if (lookup.state != RequestState.NeverRequested) return;
        lookup.state = RequestState.Requested;
        bytes memory parentAncillaryData = compressAncillaryData(ancillaryData, msg.sender, block.number);
        bytes32 parentRequestId = _encodePriceRequest(identifier, time, parentAncillaryData);
        childRequestIds[parentRequestId] = childRequestId;
        emit PriceRequestBridged(msg.sender, identifier, time, ancillaryData, childRequestId, parentRequestId);
        emit PriceRequestAdded(identifier, time, parentAncillaryData, parentRequestId);
    }

    function hasPrice(bytes32 identifier, uint256 time, bytes memory ancillaryData) external view returns (bool) {
        return prices[_encodePriceRequest(identifier, time, ancillaryData)].state == RequestState.Resolved;
    }

    // ---- seeding helper (not part of the real ABI) ----

    /// The DVM's price arriving from mainnet (_processMessageFromRoot), keyed by the parent request id as mainnet sends it.
    function seedPushPrice(bytes32 identifier, uint256 time, bytes calldata parentAncillaryData, int256 price) external {
        bytes32 parentRequestId = _encodePriceRequest(identifier, time, parentAncillaryData);
        bytes32 priceRequestId = childRequestIds[parentRequestId];
        if (priceRequestId == bytes32(0)) priceRequestId = parentRequestId;
        Price storage lookup = prices[priceRequestId];
        if (lookup.state == RequestState.Resolved) return;
        lookup.price = price;
        lookup.state = RequestState.Resolved;
        emit PushedPrice(identifier, time, parentAncillaryData, price, priceRequestId);
    }

    function _encodePriceRequest(bytes32 identifier, uint256 time, bytes memory ancillaryData) private pure returns (bytes32) {
        return keccak256(abi.encode(identifier, time, ancillaryData));
    }
}
