// SPDX-License-Identifier: AGPL-3.0-only
pragma solidity ^0.8.20;

import "./MockOptimisticOracleV2.sol";

// A test double of UMA's ManagedOptimisticOracleV2 on Polygon (UMAprotocol/managed-oracle, after `initializeV2`):
// the OOv2 above with the differences the indexer must see (each with its source line in sim/chain/SOURCES.md):
//   - getState answers through _getStateForDispute, which reads Expired as Proposed: a proposal past its liveness stays
//     Proposed until a resolver settles it, and a dispute is still accepted;
//   - settle is resolver-only;
//   - a request manager's custom liveness and bond (CustomLivenessSet / CustomBondSet, keyed by the managed request id
//     without the timestamp) are applied when the proposal is made.
contract MockManagedOptimisticOracleV2 is MockOptimisticOracleV2 {
    event CustomBondSet(bytes32 indexed managedRequestId, address requester, bytes32 indexed identifier, bytes ancillaryData, address indexed currency, uint256 bond);
    event CustomLivenessSet(bytes32 indexed managedRequestId, address indexed requester, bytes32 indexed identifier, bytes ancillaryData, uint256 customLiveness);

    mapping(bytes32 => uint256) public customLivenessValues;
    mapping(bytes32 => mapping(address => uint256)) public customBonds;
    address public immutable resolver;

    constructor(uint256 liveness, address childTunnel, address resolver_) MockOptimisticOracleV2(liveness, childTunnel) {
        resolver = resolver_;
    }

    function getManagedRequestId(address requester, bytes32 identifier, bytes memory ancillaryData) public pure returns (bytes32) {
        return keccak256(abi.encodePacked(requester, identifier, ancillaryData));
    }

    // ManagedOptimisticOracleV2._getStateForDispute: "ignoring the expired state allows extending the disputes till
    // settlement"; OptimisticOracleV2.getState returns it.
    function getState(address requester, bytes32 identifier, uint256 timestamp, bytes memory ancillaryData) public view override returns (State) {
        State state = _getState(requester, identifier, timestamp, ancillaryData);
        return state == State.Expired ? State.Proposed : state;
    }

    function requestManagerSetCustomLiveness(address requester, bytes32 identifier, bytes calldata ancillaryData, uint256 customLiveness) external {
        require(customLiveness > 0, "liveness");
        bytes32 managedRequestId = getManagedRequestId(requester, identifier, ancillaryData);
        customLivenessValues[managedRequestId] = customLiveness;
        emit CustomLivenessSet(managedRequestId, requester, identifier, ancillaryData, customLiveness);
    }

    function requestManagerSetBond(address requester, bytes32 identifier, bytes calldata ancillaryData, address currency, uint256 bond) external {
        bytes32 managedRequestId = getManagedRequestId(requester, identifier, ancillaryData);
        customBonds[managedRequestId][currency] = bond;
        emit CustomBondSet(managedRequestId, requester, identifier, ancillaryData, currency, bond);
    }

    // ManagedOptimisticOracleV2.proposePriceFor: the custom bond and liveness replace the request's before the parent
    // computes the expiration time.
    function seedProposePrice(address requester, address proposer, bytes32 identifier, uint256 timestamp, bytes calldata ancillaryData, int256 proposedPrice) public override {
        Request storage r = requests[_id(requester, identifier, timestamp, ancillaryData)];
        bytes32 managedRequestId = getManagedRequestId(requester, identifier, ancillaryData);
        uint256 bond = customBonds[managedRequestId][r.currency];
        if (bond != 0) r.requestSettings.bond = bond;
        uint256 liveness = customLivenessValues[managedRequestId];
        if (liveness != 0) r.requestSettings.customLiveness = liveness;
        super.seedProposePrice(requester, proposer, identifier, timestamp, ancillaryData, proposedPrice);
    }

    // ManagedOptimisticOracleV2.settleAndGetPrice: only reads a request a resolver already settled.
    function settleAndGetPrice(bytes32 identifier, uint256 timestamp, bytes memory ancillaryData) external view override returns (int256) {
        Request storage r = requests[_id(msg.sender, identifier, timestamp, ancillaryData)];
        require(r.settled, "RequestNotSettled");
        return r.resolvedPrice;
    }

    // ManagedOptimisticOracleV2.settle: onlyResolver.
    function seedSettle(address requester, bytes32 identifier, uint256 timestamp, bytes calldata ancillaryData) public override {
        require(msg.sender == resolver, "not resolver");
        super.seedSettle(requester, identifier, timestamp, ancillaryData);
    }
}
