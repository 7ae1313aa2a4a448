// SPDX-License-Identifier: AGPL-3.0-only
pragma solidity ^0.8.20;

// A test double of UMA's VotingV2 (DVM 2.0). Every read function and event the app uses has the real signature, so
// the real selectors and topics (checked against uma-abi/SELECTORS.tsv in tests/unit/oracle/selectors.test.ts).
// Round and phase are the real pure functions of block.timestamp, so anvil's time controls move them.
// State changes go through `seed*` helpers instead of the real commit/reveal/stake flows; they emit the real events.
contract MockVotingV2 {
    enum Phase {
        Commit,
        Reveal,
        NUM_PHASES
    }

    enum RequestStatus {
        NotRequested,
        Active,
        Resolved,
        Future,
        ToDelete
    }

    struct PendingRequestAncillaryAugmented {
        uint32 lastVotingRound;
        bool isGovernance;
        uint64 time;
        uint32 rollCount;
        bytes32 identifier;
        bytes ancillaryData;
    }

    struct PendingRequestAncillary {
        bytes32 identifier;
        uint256 time;
        bytes ancillaryData;
    }

    struct RequestState {
        RequestStatus status;
        uint32 lastVotingRound;
    }

    struct Round {
        address slashingLibrary;
        uint128 minParticipationRequirement;
        uint128 minAgreementRequirement;
        uint128 cumulativeStakeAtRound;
        uint32 numberOfRequestsToVote;
    }

    // The real struct also holds a `pendingStakes` mapping, which the public getter leaves out.
    struct VoterStake {
        uint128 stake;
        uint128 pendingUnstake;
        uint128 rewardsPaidPerToken;
        uint128 outstandingRewards;
        int128 unappliedSlash;
        uint64 nextIndexToProcess;
        uint64 unstakeTime;
        address delegate;
    }

    struct PriceRequest {
        uint32 lastVotingRound;
        bool isGovernance;
        uint64 time;
        uint32 rollCount;
        bytes32 identifier;
        bytes ancillaryData;
    }

    event VoteCommitted(address indexed voter, address indexed caller, uint32 roundId, bytes32 indexed identifier, uint256 time, bytes ancillaryData);
    event VoteRevealed(address indexed voter, address indexed caller, uint32 roundId, bytes32 indexed identifier, uint256 time, bytes ancillaryData, int256 price, uint128 numTokens);
    event RequestAdded(address indexed requester, uint32 indexed roundId, bytes32 indexed identifier, uint256 time, bytes ancillaryData, bool isGovernance);
    event RequestResolved(uint32 indexed roundId, uint256 indexed resolvedPriceRequestIndex, bytes32 indexed identifier, uint256 time, bytes ancillaryData, int256 price);
    event RequestRolled(bytes32 indexed identifier, uint256 indexed time, bytes ancillaryData, uint32 rollCount);
    event RequestDeleted(bytes32 indexed identifier, uint256 indexed time, bytes ancillaryData, uint32 rollCount);
    event Staked(address indexed voter, address indexed from, uint128 amount, uint128 voterStake, uint128 voterPendingUnstake, uint128 cumulativeStake);
    event RequestedUnstake(address indexed voter, uint128 amount, uint64 unstakeTime, uint128 voterStake);
    event ExecutedUnstake(address indexed voter, uint128 tokensSent, uint128 voterStake);
    event VoterSlashed(address indexed voter, uint256 indexed requestIndex, int128 slashedTokens);
    event VoterSlashApplied(address indexed voter, int128 slashedTokens, uint128 postStake);
    event DelegateSet(address indexed delegator, address indexed delegate);
    event DelegatorSet(address indexed delegate, address indexed delegator);

    uint256 private immutable phaseLength;
    mapping(address => VoterStake) public voterStakes;
    mapping(address => address) public delegateToStaker;
    mapping(uint256 => Round) public rounds;
    mapping(bytes32 => PriceRequest) public priceRequests;
    mapping(bytes32 => bool) private resolved;
    // Lazy processing as VotingV2 does it: a request whose vote concluded is resolved only when someone processes the
    // pending list (any vote, stake or getNumberOfPriceRequestsPostUpdate-style call); until then it stays pending.
    mapping(bytes32 => bool) private resolvable;
    bytes32[] public pendingPriceRequestsIds;
    bytes32[] public resolvedPriceRequestIds;
    uint128 public cumulativeStake;
    uint128 public gat = 5_000_000e18;
    uint64 public spat = 0.5e18;
    uint128 public emissionRate = 0.18e18;
    uint64 public unstakeCoolDown = 7 days;
    uint32 public maxRolls = 4;
    uint32 public maxRequestsPerRound = 1000;
    uint32 public lastRoundIdProcessed;
    address private constant SLASHING_LIBRARY = 0x9a406ba5a99983250Fd663947b3c968D387ce5cd;

    constructor(uint256 _phaseLength) {
        phaseLength = _phaseLength;
    }

    // ---- real read surface ----

    function voteTiming() external view returns (uint256) {
        return phaseLength;
    }

    function getCurrentRoundId() public view returns (uint32) {
        return uint32(block.timestamp / (phaseLength * 2));
    }

    function getRoundEndTime(uint256 roundId) external view returns (uint256) {
        return phaseLength * 2 * (roundId + 1);
    }

    function getVotePhase() public view returns (Phase) {
        return Phase((block.timestamp / phaseLength) % 2);
    }

    function getNumberOfPriceRequests() external view returns (uint256 numberPendingPriceRequests, uint256 numberResolvedPriceRequests) {
        return (pendingPriceRequestsIds.length, resolvedPriceRequestIds.length);
    }

    // Non-view in VotingV2 (it processes resolvable requests first); UMA recommends it over the plain, possibly stale one.
    function getNumberOfPriceRequestsPostUpdate() external returns (uint256 numberPendingPriceRequests, uint256 numberResolvedPriceRequests) {
        uint32 currentRoundId = getCurrentRoundId();
        uint256 processed;
        for (uint256 i = 0; i < pendingPriceRequestsIds.length; i++) {
            RequestStatus status = _status(pendingPriceRequestsIds[i], currentRoundId);
            if (status == RequestStatus.Resolved || status == RequestStatus.ToDelete) processed++;
        }
        uint256 nowResolved;
        for (uint256 i = 0; i < pendingPriceRequestsIds.length; i++) {
            if (_status(pendingPriceRequestsIds[i], currentRoundId) == RequestStatus.Resolved) nowResolved++;
        }
        return (pendingPriceRequestsIds.length - processed, resolvedPriceRequestIds.length + nowResolved);
    }

    function getPendingRequests() external view returns (PendingRequestAncillaryAugmented[] memory) {
        uint32 currentRoundId = getCurrentRoundId();
        uint256 count;
        for (uint256 i = 0; i < pendingPriceRequestsIds.length; i++) {
            if (_status(pendingPriceRequestsIds[i], currentRoundId) == RequestStatus.Active) count++;
        }
        PendingRequestAncillaryAugmented[] memory out = new PendingRequestAncillaryAugmented[](count);
        uint256 n;
        for (uint256 i = 0; i < pendingPriceRequestsIds.length; i++) {
            bytes32 id = pendingPriceRequestsIds[i];
            if (_status(id, currentRoundId) != RequestStatus.Active) continue;
            PriceRequest storage r = priceRequests[id];
            out[n++] = PendingRequestAncillaryAugmented(r.lastVotingRound, r.isGovernance, r.time, _actualRollCount(r, currentRoundId), r.identifier, r.ancillaryData);
        }
        return out;
    }

    function getPriceRequestStatuses(PendingRequestAncillary[] memory requests) external view returns (RequestState[] memory out) {
        uint32 currentRoundId = getCurrentRoundId();
        out = new RequestState[](requests.length);
        for (uint256 i = 0; i < requests.length; i++) {
            bytes32 id = _requestId(requests[i].identifier, requests[i].time, requests[i].ancillaryData);
            RequestStatus status = _status(id, currentRoundId);
            // VotingV2: "If it's an active request, its true lastVotingRound is the current one, even if it hasn't
            // been updated" (a request rolled into this round but not processed yet still stores its old round).
            out[i] = RequestState(status, status == RequestStatus.Active ? currentRoundId : priceRequests[id].lastVotingRound);
        }
    }

    // VotingV2.getRoundIdToVoteOnRequest: the first round from `targetRoundId` on that is not full.
    function getRoundIdToVoteOnRequest(uint32 targetRoundId) public view returns (uint32) {
        while (rounds[targetRoundId].numberOfRequestsToVote >= maxRequestsPerRound) ++targetRoundId;
        return targetRoundId;
    }

    function currentActiveRequests() external view returns (bool) {
        uint32 currentRoundId = getCurrentRoundId();
        for (uint256 i = 0; i < pendingPriceRequestsIds.length; i++) {
            if (_status(pendingPriceRequestsIds[i], currentRoundId) == RequestStatus.Active) return true;
        }
        return false;
    }

    function getVoterFromDelegate(address caller) public view returns (address) {
        address staker = delegateToStaker[caller];
        if (staker != address(0) && voterStakes[staker].delegate == caller) return staker;
        return caller;
    }

    function outstandingRewards(address voter) external view returns (uint256) {
        return voterStakes[voter].outstandingRewards;
    }

    // Non-view in the real contract: it applies pending slashes before answering; callers use eth_call.
    function getVoterStakePostUpdate(address voter) external returns (uint128) {
        VoterStake storage s = voterStakes[voter];
        // Like VotingV2._updateTrackers: every request resolved since the staker's last update is visited, so a
        // dormant staker far behind costs gas in proportion (UMA added updateTrackersRange for this).
        uint256 visited;
        for (uint256 i = s.nextIndexToProcess; i < resolvedPriceRequestIds.length; i++) {
            PriceRequest storage r = priceRequests[resolvedPriceRequestIds[i]];
            visited += uint256(r.time) + uint256(r.identifier) % 2;
        }
        require(visited != type(uint256).max, "unreachable");
        s.nextIndexToProcess = uint64(resolvedPriceRequestIds.length);
        if (s.unappliedSlash != 0) {
            s.stake = uint128(int128(s.stake) + s.unappliedSlash);
            s.unappliedSlash = 0;
        }
        return s.stake;
    }

    // MultiCaller: one eth_call batching several calls to this contract.
    function multicall(bytes[] calldata data) external returns (bytes[] memory results) {
        results = new bytes[](data.length);
        for (uint256 i = 0; i < data.length; i++) {
            (bool success, bytes memory result) = address(this).delegatecall(data[i]);
            require(success, "multicall: call failed");
            results[i] = result;
        }
    }

    // ---- seeding helpers (not part of the real ABI) ----

    function seedStakes(address[] calldata voters, uint128[] calldata amounts) external {
        for (uint256 i = 0; i < voters.length; i++) {
            VoterStake storage s = voterStakes[voters[i]];
            s.stake += amounts[i];
            cumulativeStake += amounts[i];
            emit Staked(voters[i], msg.sender, amounts[i], s.stake, s.pendingUnstake, cumulativeStake);
        }
    }

    function seedSetDelegate(address voter, address delegate) external {
        voterStakes[voter].delegate = delegate;
        delegateToStaker[delegate] = voter;
        emit DelegateSet(voter, delegate);
        emit DelegatorSet(delegate, voter);
    }

    /// Only the staker's side of a delegation (Staker.setDelegate): not in effect until the delegate calls setDelegator.
    function seedSetDelegateOneSided(address voter, address delegate) external {
        voterStakes[voter].delegate = delegate;
        emit DelegateSet(voter, delegate);
    }

    function seedRequestUnstake(address voter, uint128 amount) external {
        VoterStake storage s = voterStakes[voter];
        s.stake -= amount;
        s.pendingUnstake += amount;
        s.unstakeTime = uint64(block.timestamp + unstakeCoolDown);
        cumulativeStake -= amount;
        emit RequestedUnstake(voter, amount, s.unstakeTime, s.stake);
    }

    // A slash recorded but not yet applied: voterStakes(voter).stake stays stale until getVoterStakePostUpdate.
    function seedSlash(address voter, int128 slashedTokens) external {
        voterStakes[voter].unappliedSlash += slashedTokens;
        emit VoterSlashed(voter, resolvedPriceRequestIds.length, slashedTokens);
    }

    // VotingV2._requestPrice: a request already known is left alone (no event); a new one is voted in the first round
    // after the current one that is not full.
    function seedRequest(address requester, bytes32 identifier, uint256 time, bytes calldata ancillaryData) external returns (bytes32 id) {
        id = _requestId(identifier, time, ancillaryData);
        if (priceRequests[id].time != 0 || resolved[id]) return id;
        uint32 roundId = getRoundIdToVoteOnRequest(getCurrentRoundId() + 1);
        priceRequests[id] = PriceRequest(roundId, false, uint64(time), 0, identifier, ancillaryData);
        pendingPriceRequestsIds.push(id);
        rounds[roundId].numberOfRequestsToVote++;
        emit RequestAdded(requester, roundId, identifier, time, ancillaryData, false);
    }

    function seedCommit(address voter, address caller, bytes32 identifier, uint256 time, bytes calldata ancillaryData) external {
        require(getVotePhase() == Phase.Commit, "not commit phase");
        emit VoteCommitted(voter, caller, getCurrentRoundId(), identifier, time, ancillaryData);
    }

    function seedReveal(address voter, address caller, bytes32 identifier, uint256 time, bytes calldata ancillaryData, int256 price) external {
        require(getVotePhase() == Phase.Reveal, "not reveal phase");
        _freezeRound(getCurrentRoundId());
        _emitReveal(voter, caller, identifier, time, ancillaryData, price);
    }

    function _emitReveal(address voter, address caller, bytes32 identifier, uint256 time, bytes memory ancillaryData, int256 price) private {
        uint128 numTokens = voterStakes[voter].stake;
        emit VoteRevealed(voter, caller, getCurrentRoundId(), identifier, time, ancillaryData, price, numTokens);
    }

    // The real contract freezes the round's thresholds at its first reveal; before that they read as zero.
    function _freezeRound(uint32 roundId) private {
        Round storage round = rounds[roundId];
        if (round.cumulativeStakeAtRound != 0) return;
        round.slashingLibrary = SLASHING_LIBRARY;
        round.minParticipationRequirement = gat;
        round.minAgreementRequirement = uint128((uint256(spat) * cumulativeStake) / 1e18);
        round.cumulativeStakeAtRound = cumulativeStake;
    }

    /// VotingV2's processing of one unresolved request whose round has passed (_processResolvablePriceRequests): the
    /// roll count grows by the rounds passed since its last voting round (several at once when nobody processed the
    /// queue for a while); past maxRolls the request is deleted, else it moves to the first round from now that is not
    /// full, which counts it.
    function seedRoll(bytes32 identifier, uint256 time, bytes calldata ancillaryData) external {
        bytes32 id = _requestId(identifier, time, ancillaryData);
        PriceRequest storage r = priceRequests[id];
        require(r.time != 0 && !resolved[id], "not pending");
        uint32 currentRoundId = getCurrentRoundId();
        require(r.lastVotingRound < currentRoundId, "round not passed");
        r.rollCount += currentRoundId - r.lastVotingRound;
        if (r.rollCount > maxRolls && !r.isGovernance) {
            _removePending(id);
            emit RequestDeleted(identifier, time, ancillaryData, r.rollCount);
            delete priceRequests[id];
            return;
        }
        r.lastVotingRound = getRoundIdToVoteOnRequest(currentRoundId);
        rounds[r.lastVotingRound].numberOfRequestsToVote++;
        emit RequestRolled(identifier, time, ancillaryData, r.rollCount);
    }

    function seedResolve(bytes32 identifier, uint256 time, bytes calldata ancillaryData, int256 price) external {
        bytes32 id = _requestId(identifier, time, ancillaryData);
        PriceRequest storage r = priceRequests[id];
        require(r.time != 0 && !resolved[id], "not pending");
        resolved[id] = true;
        for (uint256 i = 0; i < pendingPriceRequestsIds.length; i++) {
            if (pendingPriceRequestsIds[i] == id) {
                pendingPriceRequestsIds[i] = pendingPriceRequestsIds[pendingPriceRequestsIds.length - 1];
                pendingPriceRequestsIds.pop();
                break;
            }
        }
        resolvedPriceRequestIds.push(id);
        lastRoundIdProcessed = r.lastVotingRound;
        emit RequestResolved(r.lastVotingRound, resolvedPriceRequestIds.length - 1, identifier, time, ancillaryData, price);
    }

    // ---- bulk seeding for the bench's mainnet-scale world: one transaction, many real events ----

    /// Requests voted and resolved in the given rounds (RequestAdded + RequestResolved each).
    function seedBulkResolved(bytes32 identifier, uint256[] calldata times, bytes[] calldata ancillaries, uint32[] calldata roundIds, int256 price) external {
        for (uint256 i = 0; i < times.length; i++) _seedResolved(identifier, times[i], ancillaries[i], roundIds[i], price);
    }

    function _seedResolved(bytes32 identifier, uint256 time, bytes calldata ancillaryData, uint32 roundId, int256 price) private {
        bytes32 id = _requestId(identifier, time, ancillaryData);
        PriceRequest storage r = priceRequests[id];
        r.lastVotingRound = roundId;
        r.time = uint64(time);
        r.identifier = identifier;
        resolved[id] = true;
        resolvedPriceRequestIds.push(id);
        rounds[roundId].numberOfRequestsToVote++;
        emit RequestAdded(msg.sender, roundId, identifier, time, ancillaryData, false);
        emit RequestResolved(roundId, resolvedPriceRequestIds.length - 1, identifier, time, ancillaryData, price);
    }

    /// Reveals of one request in one (past) round, with the round's thresholds frozen as the first reveal does.
    function seedBulkReveals(uint32 roundId, address[] calldata voters, bytes32 identifier, uint256 time, bytes calldata ancillaryData, int256 price) external {
        Round storage round = rounds[roundId];
        if (round.cumulativeStakeAtRound == 0) {
            round.slashingLibrary = SLASHING_LIBRARY;
            round.minParticipationRequirement = gat;
            round.minAgreementRequirement = uint128((uint256(spat) * cumulativeStake) / 1e18);
            round.cumulativeStakeAtRound = cumulativeStake;
        }
        for (uint256 i = 0; i < voters.length; i++) _emitRevealIn(roundId, voters[i], identifier, time, ancillaryData, price);
    }

    function _emitRevealIn(uint32 roundId, address voter, bytes32 identifier, uint256 time, bytes calldata ancillaryData, int256 price) private {
        uint128 numTokens = voterStakes[voter].stake;
        bytes memory text = ancillaryData;
        emit VoteRevealed(voter, voter, roundId, identifier, time, text, price, numTokens);
    }

    /// A staker whose slashing trackers stopped `behind` resolved requests ago (a dormant staker).
    function seedTrackersBehind(address voter, uint64 behind) external {
        uint256 n = resolvedPriceRequestIds.length;
        voterStakes[voter].nextIndexToProcess = uint64(n > behind ? n - behind : 0);
    }

    /// The round's vote concluded on a price; the request stays in the pending list until processed (lazy).
    function seedConcludeVote(bytes32 identifier, uint256 time, bytes calldata ancillaryData) external {
        bytes32 id = _requestId(identifier, time, ancillaryData);
        require(priceRequests[id].time != 0 && !resolved[id], "not pending");
        resolvable[id] = true;
    }

    /// Deletes a request as VotingV2's processing does past maxRolls (emits the real RequestDeleted with the actual roll
    /// count). The caller decides that it rolled too often: the count is not checked (seedRoll deletes by the real rule).
    function seedDelete(bytes32 identifier, uint256 time, bytes calldata ancillaryData) external {
        bytes32 id = _requestId(identifier, time, ancillaryData);
        PriceRequest storage r = priceRequests[id];
        require(r.time != 0 && !resolved[id], "not pending");
        _removePending(id);
        // The count the deletion carries is the actual one (VotingV2 adds the rounds passed before deleting).
        emit RequestDeleted(identifier, time, ancillaryData, _actualRollCount(r, getCurrentRoundId()));
        delete priceRequests[id];
    }

    /// Requests added in past rounds and never processed since (RequestAdded in their round, as _requestPrice emits
    /// it): VotingV2 counts their rolls lazily, so each is up for vote now with an actual roll count of the rounds passed.
    function seedBulkPending(bytes32 identifier, uint256[] calldata times, bytes[] calldata ancillaries, uint32[] calldata roundIds) external {
        for (uint256 i = 0; i < times.length; i++) {
            bytes32 id = _requestId(identifier, times[i], ancillaries[i]);
            require(priceRequests[id].time == 0, "exists");
            priceRequests[id] = PriceRequest(roundIds[i], false, uint64(times[i]), 0, identifier, ancillaries[i]);
            pendingPriceRequestsIds.push(id);
            rounds[roundIds[i]].numberOfRequestsToVote++;
            emit RequestAdded(msg.sender, roundIds[i], identifier, times[i], ancillaries[i], false);
        }
    }

    function _removePending(bytes32 id) private {
        for (uint256 i = 0; i < pendingPriceRequestsIds.length; i++) {
            if (pendingPriceRequestsIds[i] == id) {
                pendingPriceRequestsIds[i] = pendingPriceRequestsIds[pendingPriceRequestsIds.length - 1];
                pendingPriceRequestsIds.pop();
                break;
            }
        }
    }

    // ---- internals ----

    // VotingV2._getActualRollCount: a request whose round passed unresolved has rolled once per round since, whether or
    // not anyone processed the queue (RequestRolled is emitted only then).
    function _actualRollCount(PriceRequest storage r, uint32 currentRoundId) private view returns (uint32) {
        if (currentRoundId <= r.lastVotingRound) return r.rollCount;
        return r.rollCount + currentRoundId - r.lastVotingRound;
    }

    function _requestId(bytes32 identifier, uint256 time, bytes memory ancillaryData) private pure returns (bytes32) {
        return keccak256(abi.encode(identifier, time, ancillaryData));
    }

    function _status(bytes32 id, uint32 currentRoundId) private view returns (RequestStatus) {
        PriceRequest storage r = priceRequests[id];
        if (r.time == 0) return RequestStatus.NotRequested;
        if (resolved[id]) return RequestStatus.Resolved;
        // getPriceRequestStatuses reports what processing would make of it: a concluded vote of a past round resolves.
        if (resolvable[id] && r.lastVotingRound < currentRoundId) return RequestStatus.Resolved;
        if (r.lastVotingRound > currentRoundId) return RequestStatus.Future;
        if (r.lastVotingRound < currentRoundId && _actualRollCount(r, currentRoundId) > maxRolls && !r.isGovernance) return RequestStatus.ToDelete;
        // A request whose round passed unresolved would roll into this one when processed: it is up for vote now.
        return RequestStatus.Active;
    }
}
