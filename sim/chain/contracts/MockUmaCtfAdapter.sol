// SPDX-License-Identifier: AGPL-3.0-only
pragma solidity ^0.8.20;

interface IAdapterOracle {
    function requestPrice(bytes32 identifier, uint256 timestamp, bytes memory ancillaryData, address currency, uint256 reward) external returns (uint256);
    function setEventBased(bytes32 identifier, uint256 timestamp, bytes memory ancillaryData) external;
    function setCallbacks(bytes32 identifier, uint256 timestamp, bytes memory ancillaryData, bool onProposed, bool onDisputed, bool onSettled) external;
    function settleAndGetPrice(bytes32 identifier, uint256 timestamp, bytes memory ancillaryData) external returns (int256);
}

// A test double of Polymarket's UmaCtfAdapter (Polymarket/uma-ctf-adapter src/UmaCtfAdapter.sol): the question
// bookkeeping, the OO requests it makes and the events it emits, each following the real function line by line
// (sim/chain/SOURCES.md). Left out: the collateral whitelist, the reward transfers and the CTF (no condition is
// prepared or reported; the payouts are only emitted). The Optimistic Oracle is held in storage, not immutable, so the
// local chain can place this code at the real adapters' addresses (anvil_setCode) and point it at its OO after.
contract MockUmaCtfAdapter {
    struct QuestionData {
        uint256 requestTimestamp;
        uint256 reward;
        uint256 proposalBond;
        uint256 liveness;
        uint256 manualResolutionTimestamp;
        bool resolved;
        bool paused;
        bool reset;
        bool refund;
        address rewardToken;
        address creator;
        bytes ancillaryData;
    }

    event QuestionInitialized(bytes32 indexed questionID, uint256 indexed requestTimestamp, address indexed creator, bytes ancillaryData, address rewardToken, uint256 reward, uint256 proposalBond);
    event QuestionFlagged(bytes32 indexed questionID);
    event QuestionUnflagged(bytes32 indexed questionID);
    event QuestionPaused(bytes32 indexed questionID);
    event QuestionUnpaused(bytes32 indexed questionID);
    event QuestionReset(bytes32 indexed questionID);
    event QuestionResolved(bytes32 indexed questionID, int256 indexed settledPrice, uint256[] payouts);
    event QuestionManuallyResolved(bytes32 indexed questionID, uint256[] payouts);
    // The v2 / v3.1 adapters' name of the same admin resolution (uma-ctf-adapter tags v2.0.0, v3.1.0).
    event QuestionEmergencyResolved(bytes32 indexed questionID, uint256[] payouts);

    bytes32 public constant YES_OR_NO_IDENTIFIER = "YES_OR_NO_QUERY";
    uint256 public constant SAFETY_PERIOD = 1 hours;

    address public optimisticOracle;
    mapping(bytes32 => QuestionData) public questions;

    /// Points a copy placed by anvil_setCode at its Optimistic Oracle (the real one takes it in its constructor).
    function seedInit(address oo) external {
        require(optimisticOracle == address(0), "initialized");
        optimisticOracle = oo;
    }

    /// initialize(): the question is stored and requested at this block's time. The seed passes data that already ends
    /// with `,initializer:<creator>` (what the real initialize appends), so its questionID is the simulator's.
    function seedInitialize(bytes memory data, address rewardToken, uint256 reward) external returns (bytes32 questionID) {
        questionID = keccak256(data);
        require(questions[questionID].ancillaryData.length == 0, "Initialized");
        questions[questionID] = QuestionData(block.timestamp, reward, 0, 0, 0, false, false, false, false, rewardToken, msg.sender, data);
        _requestPrice(block.timestamp, data, rewardToken, reward);
        emit QuestionInitialized(questionID, block.timestamp, msg.sender, data, rewardToken, reward, 0);
    }

    function getQuestion(bytes32 questionID) external view returns (QuestionData memory) {
        return questions[questionID];
    }

    /// priceDisputed: a first dispute resets the question (a new request at this block's time, QuestionReset); a
    /// second one only marks the reward for refund and leaves the disputed request to the DVM; a resolved question is
    /// left alone.
    function priceDisputed(bytes32, uint256, bytes memory ancillaryData, uint256) external {
        require(msg.sender == optimisticOracle, "NotOptimisticOracle");
        bytes32 questionID = keccak256(ancillaryData);
        QuestionData storage q = questions[questionID];
        // Not in the real contract, which only ever sees its own questions: a request the seed made on the adapter's
        // behalf, without initialize, is not the adapter's business.
        if (q.ancillaryData.length == 0) return;
        if (q.resolved) return;
        if (q.reset) {
            q.refund = true;
            return;
        }
        _reset(questionID, false, q);
    }

    /// resolve: settles the OO request and reports; the ignore price (type(int256).min, "too early") resets instead.
    function resolve(bytes32 questionID) external {
        QuestionData storage q = questions[questionID];
        require(q.ancillaryData.length > 0, "NotInitialized");
        require(!q.paused, "Paused");
        require(!q.resolved, "Resolved");
        int256 price = IAdapterOracle(optimisticOracle).settleAndGetPrice(YES_OR_NO_IDENTIFIER, q.requestTimestamp, q.ancillaryData);
        if (price == type(int256).min) return _reset(questionID, true, q);
        q.resolved = true;
        emit QuestionResolved(questionID, price, _payouts(price));
    }

    /// flag (admin): manual resolution becomes possible after the safety period; the question is paused.
    function flag(bytes32 questionID) external {
        QuestionData storage q = questions[questionID];
        require(q.ancillaryData.length > 0, "NotInitialized");
        require(q.manualResolutionTimestamp == 0, "Flagged");
        require(!q.resolved, "Resolved");
        q.manualResolutionTimestamp = block.timestamp + SAFETY_PERIOD;
        q.paused = true;
        emit QuestionFlagged(questionID);
    }

    /// unflag (admin, v3.1 and v4): only within the safety period; the flag and the pause are undone.
    function unflag(bytes32 questionID) external {
        QuestionData storage q = questions[questionID];
        require(q.ancillaryData.length > 0, "NotInitialized");
        require(q.manualResolutionTimestamp > 0, "NotFlagged");
        require(!q.resolved, "Resolved");
        require(block.timestamp <= q.manualResolutionTimestamp, "SafetyPeriodPassed");
        q.manualResolutionTimestamp = 0;
        q.paused = false;
        emit QuestionUnflagged(questionID);
    }

    /// pause (admin): resolve() reverts while paused.
    function pause(bytes32 questionID) external {
        QuestionData storage q = questions[questionID];
        require(q.ancillaryData.length > 0, "NotInitialized");
        require(!q.resolved, "Resolved");
        q.paused = true;
        emit QuestionPaused(questionID);
    }

    /// unpause (admin): only `paused` is cleared; a flag stays.
    function unpause(bytes32 questionID) external {
        QuestionData storage q = questions[questionID];
        require(q.ancillaryData.length > 0, "NotInitialized");
        q.paused = false;
        emit QuestionUnpaused(questionID);
    }

    /// reset (admin): a new request, whatever the state of the last one.
    function reset(bytes32 questionID) external {
        QuestionData storage q = questions[questionID];
        require(q.ancillaryData.length > 0, "NotInitialized");
        require(!q.resolved, "Resolved");
        _reset(questionID, true, q);
    }

    /// resolveManually (admin, v4): a flagged question past the safety period is resolved with the admin's payouts.
    function resolveManually(bytes32 questionID, uint256[] calldata payouts) external {
        _resolveByAdmin(questionID, payouts);
        emit QuestionManuallyResolved(questionID, payouts);
    }

    /// emergencyResolve (admin, v2 and v3.1): the same checks and writes under the older name and event.
    function emergencyResolve(bytes32 questionID, uint256[] calldata payouts) external {
        _resolveByAdmin(questionID, payouts);
        emit QuestionEmergencyResolved(questionID, payouts);
    }

    function _resolveByAdmin(bytes32 questionID, uint256[] calldata payouts) private {
        QuestionData storage q = questions[questionID];
        require(payouts.length == 2 && payouts[0] + payouts[1] > 0 && payouts[0] <= 1 && payouts[1] <= 1, "InvalidPayouts");
        require(q.ancillaryData.length > 0, "NotInitialized");
        require(q.manualResolutionTimestamp > 0, "NotFlagged");
        require(block.timestamp >= q.manualResolutionTimestamp, "SafetyPeriodNotPassed");
        // The real function has no `resolved` check of its own: its ctf.reportPayouts reverts on a question already
        // reported (the CTF's "payout denominator already set"; a neg-risk adapter's operator: QuestionAlreadyReported),
        // so a question resolved by the oracle or by the admin cannot be resolved again. This mock has no CTF.
        require(!q.resolved, "payout denominator already set");
        q.resolved = true;
    }

    function _requestPrice(uint256 timestamp, bytes memory data, address rewardToken, uint256 reward) private {
        IAdapterOracle oo = IAdapterOracle(optimisticOracle);
        oo.requestPrice(YES_OR_NO_IDENTIFIER, timestamp, data, rewardToken, reward);
        oo.setEventBased(YES_OR_NO_IDENTIFIER, timestamp, data);
        oo.setCallbacks(YES_OR_NO_IDENTIFIER, timestamp, data, false, true, false);
    }

    function _reset(bytes32 questionID, bool resetRefund, QuestionData storage q) private {
        q.requestTimestamp = block.timestamp;
        q.reset = true;
        if (resetRefund) q.refund = false;
        _requestPrice(block.timestamp, q.ancillaryData, q.rewardToken, q.reward);
        emit QuestionReset(questionID);
    }

    function _payouts(int256 price) private pure returns (uint256[] memory payouts) {
        require(price == 0 || price == 0.5 ether || price == 1 ether, "InvalidOOPrice");
        payouts = new uint256[](2);
        payouts[0] = price == 0 ? 0 : 1;
        payouts[1] = price == 1 ether ? 0 : 1;
    }
}
