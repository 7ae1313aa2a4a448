// SPDX-License-Identifier: AGPL-3.0-only
pragma solidity ^0.8.20;

import "./AncillaryStrings.sol";

interface IChildTunnel {
    function requestPrice(bytes32 identifier, uint256 time, bytes memory ancillaryData) external;
}

// OptimisticRequester's dispute callback (UMAprotocol/protocol OptimisticOracleV2Interface / OptimisticRequester).
interface IOptimisticRequester {
    function priceDisputed(bytes32 identifier, uint256 timestamp, bytes memory ancillaryData, uint256 refund) external;
}

// Its settle callback, called only on requesters that asked for it (the sports oracle does; the adapters do not).
interface IOptimisticSettleRequester {
    function priceSettled(bytes32 identifier, uint256 timestamp, bytes memory ancillaryData, int256 price) external;
}

// A test double of UMA's OptimisticOracleV2 on Polygon. The read functions and events have the real signatures;
// getState follows the real _getState decision order. Disputes are forwarded to the child tunnel as the real OOv2
// forwards them to its oracle: with `,ooRequester:<requester>` stamped on and the proposal time for event-based
// requests; after DisputePrice the requester's priceDisputed callback runs (Polymarket's adapter resets the question
// there: a new request in the same transaction). requestPrice / setEventBased / setCallbacks are the real calls an
// adapter makes (requester = msg.sender); other state changes go through `seed*` helpers that emit the real events.
contract MockOptimisticOracleV2 {
    enum State {
        Invalid,
        Requested,
        Proposed,
        Expired,
        Disputed,
        Resolved,
        Settled
    }

    struct RequestSettings {
        bool eventBased;
        bool refundOnDispute;
        bool callbackOnPriceProposed;
        bool callbackOnPriceDisputed;
        bool callbackOnPriceSettled;
        uint256 bond;
        uint256 customLiveness;
    }

    struct Request {
        address proposer;
        address disputer;
        address currency;
        bool settled;
        RequestSettings requestSettings;
        int256 proposedPrice;
        int256 resolvedPrice;
        uint256 expirationTime;
        uint256 reward;
        uint256 finalFee;
    }

    event RequestPrice(address indexed requester, bytes32 identifier, uint256 timestamp, bytes ancillaryData, address currency, uint256 reward, uint256 finalFee);
    event ProposePrice(address indexed requester, address indexed proposer, bytes32 identifier, uint256 timestamp, bytes ancillaryData, int256 proposedPrice, uint256 expirationTimestamp, address currency);
    event DisputePrice(address indexed requester, address indexed proposer, address indexed disputer, bytes32 identifier, uint256 timestamp, bytes ancillaryData, int256 proposedPrice);
    event Settle(address indexed requester, address indexed proposer, address indexed disputer, bytes32 identifier, uint256 timestamp, bytes ancillaryData, int256 price, uint256 payout);

    uint256 public constant OO_ANCILLARY_DATA_LIMIT = 8139;
    uint256 public defaultLiveness;
    mapping(bytes32 => Request) public requests;
    mapping(bytes32 => bool) private dvmHasPrice;
    IChildTunnel private immutable oracle;

    constructor(uint256 liveness, address childTunnel) {
        defaultLiveness = liveness;
        oracle = IChildTunnel(childTunnel);
    }

    // ---- real read surface ----

    function getRequest(address requester, bytes32 identifier, uint256 timestamp, bytes memory ancillaryData) external view returns (Request memory) {
        return requests[_id(requester, identifier, timestamp, ancillaryData)];
    }

    function getState(address requester, bytes32 identifier, uint256 timestamp, bytes memory ancillaryData) public view virtual returns (State) {
        return _getState(requester, identifier, timestamp, ancillaryData);
    }

    // The real _getState: the clock decides Expired, whoever asks.
    function _getState(address requester, bytes32 identifier, uint256 timestamp, bytes memory ancillaryData) internal view returns (State) {
        bytes32 id = _id(requester, identifier, timestamp, ancillaryData);
        Request storage r = requests[id];
        if (r.currency == address(0)) return State.Invalid;
        if (r.proposer == address(0)) return State.Requested;
        if (r.settled) return State.Settled;
        if (r.disputer == address(0)) return r.expirationTime <= block.timestamp ? State.Expired : State.Proposed;
        return dvmHasPrice[id] ? State.Resolved : State.Disputed;
    }

    function hasPrice(address requester, bytes32 identifier, uint256 timestamp, bytes memory ancillaryData) external view returns (bool) {
        State state = getState(requester, identifier, timestamp, ancillaryData);
        return state == State.Settled || state == State.Resolved || state == State.Expired;
    }

    function stampAncillaryData(bytes memory ancillaryData, address requester) public pure returns (bytes memory) {
        return AncillaryStrings.append(ancillaryData, "ooRequester", AncillaryStrings.toHex(requester));
    }

    // ---- the real calls a requester (Polymarket's adapter) makes ----

    function requestPrice(bytes32 identifier, uint256 timestamp, bytes memory ancillaryData, address currency, uint256 reward) external returns (uint256 totalBond) {
        Request storage r = requests[_id(msg.sender, identifier, timestamp, ancillaryData)];
        // requestPrice: "requestPrice: Invalid" unless the request does not exist yet.
        require(r.currency == address(0), "requestPrice: Invalid");
        r.currency = currency;
        r.reward = reward;
        r.finalFee = 1500e6;
        r.requestSettings = RequestSettings(false, false, false, false, false, 750e6, defaultLiveness);
        emit RequestPrice(msg.sender, identifier, timestamp, ancillaryData, currency, reward, r.finalFee);
        return r.requestSettings.bond + r.finalFee;
    }

    function setEventBased(bytes32 identifier, uint256 timestamp, bytes memory ancillaryData) external {
        Request storage r = requests[_id(msg.sender, identifier, timestamp, ancillaryData)];
        require(r.currency != address(0) && r.proposer == address(0), "setEventBased: Requested");
        r.requestSettings.eventBased = true;
        // The real setEventBased also sets refundOnDispute.
        r.requestSettings.refundOnDispute = true;
    }

    function setCallbacks(bytes32 identifier, uint256 timestamp, bytes memory ancillaryData, bool onProposed, bool onDisputed, bool onSettled) external {
        Request storage r = requests[_id(msg.sender, identifier, timestamp, ancillaryData)];
        require(r.currency != address(0) && r.proposer == address(0), "setCallbacks: Requested");
        r.requestSettings.callbackOnPriceProposed = onProposed;
        r.requestSettings.callbackOnPriceDisputed = onDisputed;
        r.requestSettings.callbackOnPriceSettled = onSettled;
    }

    // settleAndGetPrice: settles the caller's request if it is not settled yet (an Expired or Resolved one), then
    // returns its price.
    function settleAndGetPrice(bytes32 identifier, uint256 timestamp, bytes memory ancillaryData) external virtual returns (int256) {
        Request storage r = requests[_id(msg.sender, identifier, timestamp, ancillaryData)];
        if (!r.settled) _settleRequest(msg.sender, identifier, timestamp, ancillaryData);
        return r.resolvedPrice;
    }

    // ---- seeding helpers (not part of the real ABI) ----

    function seedRequestPrice(address requester, bytes32 identifier, uint256 timestamp, bytes calldata ancillaryData, address currency, uint256 reward) external {
        Request storage r = requests[_id(requester, identifier, timestamp, ancillaryData)];
        require(r.currency == address(0), "exists");
        r.currency = currency;
        r.reward = reward;
        r.finalFee = 1500e6;
        // Polymarket's adapter makes every request event-based with a callback on dispute.
        r.requestSettings = RequestSettings(true, false, false, true, false, 750e6, defaultLiveness);
        emit RequestPrice(requester, identifier, timestamp, ancillaryData, currency, reward, r.finalFee);
    }

    function seedProposePrice(address requester, address proposer, bytes32 identifier, uint256 timestamp, bytes calldata ancillaryData, int256 proposedPrice) public virtual {
        Request storage r = requests[_id(requester, identifier, timestamp, ancillaryData)];
        require(r.currency != address(0) && r.proposer == address(0), "not requested");
        r.proposer = proposer;
        r.proposedPrice = proposedPrice;
        r.expirationTime = block.timestamp + r.requestSettings.customLiveness;
        emit ProposePrice(requester, proposer, identifier, timestamp, ancillaryData, proposedPrice, r.expirationTime, r.currency);
    }

    function seedDisputePrice(address requester, address disputer, bytes32 identifier, uint256 timestamp, bytes calldata ancillaryData) external {
        Request storage r = requests[_id(requester, identifier, timestamp, ancillaryData)];
        // disputePriceFor requires _getStateForDispute(...) == Proposed: on the legacy OOv2 that is _getState, so a
        // proposal past liveness (Expired) cannot be disputed; the Managed OOv2 overrides it (sim/chain/SOURCES.md).
        require(getState(requester, identifier, timestamp, ancillaryData) == State.Proposed, "not disputable");
        r.disputer = disputer;
        // The real disputePriceFor calls the oracle (here the child tunnel, which emits PriceRequestBridged) BEFORE
        // it emits DisputePrice (sim/chain/SOURCES.md). Event-based requests are voted at their proposal time (the
        // real _getTimestampForDvmRequest).
        uint256 dvmTime = r.requestSettings.eventBased ? r.expirationTime - r.requestSettings.customLiveness : timestamp;
        oracle.requestPrice(identifier, dvmTime, stampAncillaryData(ancillaryData, requester));
        uint256 refund = _refundOnDispute(r);
        emit DisputePrice(requester, r.proposer, disputer, identifier, timestamp, ancillaryData, r.proposedPrice);
        _disputeCallback(r, requester, identifier, timestamp, ancillaryData, refund);
    }

    // disputePriceFor: the reward goes back to the requester when refundOnDispute is set (event-based requests).
    function _refundOnDispute(Request storage r) private returns (uint256 refund) {
        if (r.reward > 0 && r.requestSettings.refundOnDispute) {
            refund = r.reward;
            r.reward = 0;
        }
    }

    // disputePriceFor, after DisputePrice: the requester's priceDisputed callback, if it is a contract that asked for it.
    function _disputeCallback(Request storage r, address requester, bytes32 identifier, uint256 timestamp, bytes memory ancillaryData, uint256 refund) private {
        if (requester.code.length > 0 && r.requestSettings.callbackOnPriceDisputed) {
            IOptimisticRequester(requester).priceDisputed(identifier, timestamp, ancillaryData, refund);
        }
    }

    /// Bulk seeding for the bench's mainnet-scale world: each question requested, proposed at its proposal time and
    /// disputed in this one transaction, with the real DisputePrice event and the real forward to the child tunnel.
    function seedBulkDisputes(
        address requester,
        bytes32 identifier,
        uint256[] calldata timestamps,
        uint256[] calldata proposalTimes,
        bytes[] calldata ancillaries,
        address proposer,
        address disputer
    ) external {
        for (uint256 i = 0; i < timestamps.length; i++) {
            _seedDisputed(requester, identifier, timestamps[i], proposalTimes[i], ancillaries[i], proposer, disputer);
        }
    }

    function _seedDisputed(address requester, bytes32 identifier, uint256 timestamp, uint256 proposalTime, bytes calldata ancillaryData, address proposer, address disputer) private {
        Request storage r = requests[_id(requester, identifier, timestamp, ancillaryData)];
        require(r.currency == address(0), "exists");
        r.currency = address(0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174);
        r.requestSettings = RequestSettings(true, false, false, true, false, 750e6, defaultLiveness);
        r.proposer = proposer;
        r.disputer = disputer;
        r.proposedPrice = 1e18;
        r.expirationTime = proposalTime + defaultLiveness;
        // Oracle first, then DisputePrice, then the requester's callback: the real call order (sim/chain/SOURCES.md).
        oracle.requestPrice(identifier, proposalTime, stampAncillaryData(ancillaryData, requester));
        emit DisputePrice(requester, proposer, disputer, identifier, timestamp, ancillaryData, 1e18);
        _disputeCallback(r, requester, identifier, timestamp, ancillaryData, 0);
    }

    // The DVM's answer reaching Polygon through the tunnel: the request becomes Resolved.
    function seedPushDvmPrice(address requester, bytes32 identifier, uint256 timestamp, bytes calldata ancillaryData, int256 price) external {
        bytes32 id = _id(requester, identifier, timestamp, ancillaryData);
        require(requests[id].disputer != address(0), "not disputed");
        dvmHasPrice[id] = true;
        requests[id].resolvedPrice = price;
    }

    function seedSettle(address requester, bytes32 identifier, uint256 timestamp, bytes calldata ancillaryData) public virtual {
        _settleRequest(requester, identifier, timestamp, ancillaryData);
    }

    function _settleRequest(address requester, bytes32 identifier, uint256 timestamp, bytes memory ancillaryData) internal {
        bytes32 id = _id(requester, identifier, timestamp, ancillaryData);
        Request storage r = requests[id];
        // UMAprotocol/protocol OptimisticOracleV2._settle: an Expired (undisputed) proposal settles at the proposed
        // price, a Resolved (disputed) one at the DVM's; anything else reverts "_settle: not settleable".
        State state = _getState(requester, identifier, timestamp, ancillaryData);
        require(state == State.Resolved || state == State.Expired, "not settleable");
        if (state == State.Expired) r.resolvedPrice = r.proposedPrice;
        r.settled = true;
        emit Settle(requester, r.proposer, r.disputer, identifier, timestamp, ancillaryData, r.resolvedPrice, r.reward + r.requestSettings.bond);
        // _settle, after Settle: the requester's priceSettled callback when it is a contract that set it.
        if (requester.code.length > 0 && r.requestSettings.callbackOnPriceSettled) {
            IOptimisticSettleRequester(requester).priceSettled(identifier, timestamp, ancillaryData, r.resolvedPrice);
        }
    }

    function _id(address requester, bytes32 identifier, uint256 timestamp, bytes memory ancillaryData) internal pure returns (bytes32) {
        return keccak256(abi.encodePacked(requester, identifier, timestamp, ancillaryData));
    }
}
