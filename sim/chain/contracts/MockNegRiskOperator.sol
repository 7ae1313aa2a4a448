// SPDX-License-Identifier: AGPL-3.0-only
pragma solidity ^0.8.20;

// A test double of Polymarket's NegRiskOperator (Polymarket/neg-risk-ctf-adapter src/NegRiskOperator.sol): the
// requestId (the UMA adapter's questionID) → neg-risk questionId map the join reads, its NegRiskAdapter, and the
// events of preparing, flagging and of an emergency resolution. The NegRiskAdapter itself is not played: a question's id is
// the market id plus its index, as NegRiskIdLib and MarketDataManager._prepareQuestion make it (sim/chain/SOURCES.md).
contract MockNegRiskOperator {
    event QuestionPrepared(bytes32 indexed marketId, bytes32 indexed questionId, bytes32 indexed requestId, uint256 questionIndex, bytes data);
    event QuestionFlagged(bytes32 indexed questionId);
    event QuestionUnflagged(bytes32 indexed questionId);
    event QuestionEmergencyResolved(bytes32 indexed questionId, bool result);

    address public immutable nrAdapter;
    mapping(bytes32 => bytes32) public questionIds;
    mapping(bytes32 => uint256) public flaggedAt;
    mapping(bytes32 => uint8) private questionCounts;
    /// Stands in for the NegRiskAdapter's condition: reported once (the CTF's reportPayouts reverts on a second).
    mapping(bytes32 => bool) private reported;

    constructor(address nrAdapter_) {
        nrAdapter = nrAdapter_;
    }

    /// prepareQuestion (admin): one question per requestId; its id is the market id plus the market's next index.
    function seedPrepareQuestion(bytes32 marketId, bytes memory data, bytes32 requestId) public returns (bytes32 questionId) {
        require(questionIds[requestId] == bytes32(0), "QuestionWithRequestIdAlreadyPrepared");
        uint8 index = questionCounts[marketId]++;
        questionId = bytes32(uint256(marketId) + index);
        questionIds[requestId] = questionId;
        emit QuestionPrepared(marketId, questionId, requestId, index, data);
    }

    /// Many questions of one market at once (the bench's scaled world).
    function seedBulkPrepare(bytes32 marketId, bytes32[] calldata requestIds) external {
        for (uint256 i = 0; i < requestIds.length; i++) seedPrepareQuestion(marketId, "", requestIds[i]);
    }

    /// flagQuestion (admin), then emergencyResolveQuestion (admin), in one call (the bench's scaled world).
    function seedEmergencyResolve(bytes32 questionId, bool result) external {
        if (flaggedAt[questionId] == 0) flagQuestion(questionId);
        emergencyResolveQuestion(questionId, result);
    }

    /// flagQuestion (admin): a flagged question cannot be resolved from the oracle's report.
    function flagQuestion(bytes32 questionId) public {
        require(flaggedAt[questionId] == 0, "OnlyNotFlagged");
        flaggedAt[questionId] = block.timestamp;
        emit QuestionFlagged(questionId);
    }

    /// unflagQuestion (admin).
    function unflagQuestion(bytes32 questionId) external {
        require(flaggedAt[questionId] > 0, "OnlyFlagged");
        flaggedAt[questionId] = 0;
        emit QuestionUnflagged(questionId);
    }

    /// emergencyResolveQuestion (admin): only a flagged question; DELAY_PERIOD is 0 since "Remove Delay Period".
    function emergencyResolveQuestion(bytes32 questionId, bool result) public {
        require(flaggedAt[questionId] > 0, "OnlyFlagged");
        // nrAdapter.reportOutcome → ctf.reportPayouts: a question already resolved reverts ("payout denominator
        // already set"); the flag itself stays set (unflagQuestion may still follow, the question stays resolved).
        require(!reported[questionId], "payout denominator already set");
        reported[questionId] = true;
        emit QuestionEmergencyResolved(questionId, result);
    }
}
