// The slices of UMA's published ABIs (`@uma/contracts-node` 0.4.28, see docs/oracle-facts.md#abis) that the oracle
// endpoints read. Signatures are verbatim, so selectors and topics are the real ones (tests/unit/oracle/selectors).
// `getVoterStakePostUpdate` is non-view on chain (it applies pending slashes first); it is declared `view` here only
// so viem lets us eth_call it, which is how UMA's own voter dapp reads it. Mutability does not change a selector.
import { parseAbi } from "viem";

export const votingV2Abi = parseAbi([
  "function getCurrentRoundId() view returns (uint32)",
  "function getVotePhase() view returns (uint8)",
  "function getRoundEndTime(uint256 roundId) view returns (uint256)",
  "function voteTiming() view returns (uint256 phaseLength)",
  "function rounds(uint256) view returns (address slashingLibrary, uint128 minParticipationRequirement, uint128 minAgreementRequirement, uint128 cumulativeStakeAtRound, uint32 numberOfRequestsToVote)",
  "function getPendingRequests() view returns ((uint32 lastVotingRound, bool isGovernance, uint64 time, uint32 rollCount, bytes32 identifier, bytes ancillaryData)[])",
  "function getNumberOfPriceRequests() view returns (uint256 numberPendingPriceRequests, uint256 numberResolvedPriceRequests)",
  // Non-view on chain (it processes resolvable requests first; UMA: "use this, the plain one can be stale"); eth_call-ed.
  "function getNumberOfPriceRequestsPostUpdate() view returns (uint256 numberPendingPriceRequests, uint256 numberResolvedPriceRequests)",
  "function getPriceRequestStatuses((bytes32 identifier, uint256 time, bytes ancillaryData)[] requests) view returns ((uint8 status, uint32 lastVotingRound)[])",
  "function voterStakes(address) view returns (uint128 stake, uint128 pendingUnstake, uint128 rewardsPaidPerToken, uint128 outstandingRewards, int128 unappliedSlash, uint64 nextIndexToProcess, uint64 unstakeTime, address delegate)",
  "function getVoterStakePostUpdate(address voter) view returns (uint128)",
  // Staker.sol: the delegate's side of a delegation (setDelegator); both sides must agree (getVoterFromDelegate).
  "function delegateToStaker(address) view returns (address)",
  "function cumulativeStake() view returns (uint128)",
  "function gat() view returns (uint128)",
  "function spat() view returns (uint64)",
  "event Staked(address indexed voter, address indexed from, uint128 amount, uint128 voterStake, uint128 voterPendingUnstake, uint128 cumulativeStake)",
  // UMAprotocol/protocol packages/core/contracts/data-verification-mechanism/implementation/VotingV2.sol (VoteCommitted).
  "event VoteCommitted(address indexed voter, address indexed caller, uint32 roundId, bytes32 indexed identifier, uint256 time, bytes ancillaryData)",
  "event VoteRevealed(address indexed voter, address indexed caller, uint32 roundId, bytes32 indexed identifier, uint256 time, bytes ancillaryData, int256 price, uint128 numTokens)",
  "event RequestAdded(address indexed requester, uint32 indexed roundId, bytes32 indexed identifier, uint256 time, bytes ancillaryData, bool isGovernance)",
  "event RequestRolled(bytes32 indexed identifier, uint256 indexed time, bytes ancillaryData, uint32 rollCount)",
  "event RequestDeleted(bytes32 indexed identifier, uint256 indexed time, bytes ancillaryData, uint32 rollCount)",
  "event RequestResolved(uint32 indexed roundId, uint256 indexed resolvedPriceRequestIndex, bytes32 indexed identifier, uint256 time, bytes ancillaryData, int256 price)",
]);

export const optimisticOracleV2Abi = parseAbi([
  "function getState(address requester, bytes32 identifier, uint256 timestamp, bytes ancillaryData) view returns (uint8)",
  "function getRequest(address requester, bytes32 identifier, uint256 timestamp, bytes ancillaryData) view returns ((address proposer, address disputer, address currency, bool settled, (bool eventBased, bool refundOnDispute, bool callbackOnPriceProposed, bool callbackOnPriceDisputed, bool callbackOnPriceSettled, uint256 bond, uint256 customLiveness) requestSettings, int256 proposedPrice, int256 resolvedPrice, uint256 expirationTime, uint256 reward, uint256 finalFee))",
  // UMAprotocol/protocol packages/core/contracts/optimistic-oracle-v2/interfaces/OptimisticOracleV2Interface.sol.
  "event ProposePrice(address indexed requester, address indexed proposer, bytes32 identifier, uint256 timestamp, bytes ancillaryData, int256 proposedPrice, uint256 expirationTimestamp, address currency)",
  "event Settle(address indexed requester, address indexed proposer, address indexed disputer, bytes32 identifier, uint256 timestamp, bytes ancillaryData, int256 price, uint256 payout)",
  "event DisputePrice(address indexed requester, address indexed proposer, address indexed disputer, bytes32 identifier, uint256 timestamp, bytes ancillaryData, int256 proposedPrice)",
]);

export const oracleChildTunnelAbi = parseAbi([
  "event PriceRequestBridged(address indexed requester, bytes32 identifier, uint256 time, bytes ancillaryData, bytes32 indexed childRequestId, bytes32 indexed parentRequestId)",
]);

/**
 * Polymarket's UmaCtfAdapter (Polymarket/uma-ctf-adapter src/interfaces/IUmaCtfAdapter.sol): the outcomes it decides
 * outside the OO's own events. QuestionReset is emitted in the dispute's transaction when a first dispute resets the
 * question (UmaCtfAdapter.priceDisputed → _reset), and after a "too early" answer or an admin reset. The admin's
 * resolution is QuestionEmergencyResolved in v2 and v3.1 (`emergencyResolve`, tags v2.0.0 / v3.1.0) and
 * QuestionManuallyResolved in v4 (`resolveManually`, renamed in commit 358cda4); QuestionUnflagged exists from v3.1
 * (docs/oracle-facts.md, "Outcomes outside the vote").
 */
export const umaCtfAdapterAbi = parseAbi([
  "event QuestionReset(bytes32 indexed questionID)",
  "event QuestionResolved(bytes32 indexed questionID, int256 indexed settledPrice, uint256[] payouts)",
  "event QuestionManuallyResolved(bytes32 indexed questionID, uint256[] payouts)",
  "event QuestionEmergencyResolved(bytes32 indexed questionID, uint256[] payouts)",
  "event QuestionFlagged(bytes32 indexed questionID)",
  "event QuestionUnflagged(bytes32 indexed questionID)",
  "event QuestionPaused(bytes32 indexed questionID)",
  "event QuestionUnpaused(bytes32 indexed questionID)",
]);

/**
 * Polymarket's NegRiskOperator (Polymarket/neg-risk-ctf-adapter src/NegRiskOperator.sol): what UMA's monitor reads, and
 * the admin's flag and emergency resolution of a neg-risk question (keyed by the neg-risk questionId). Its
 * QuestionFlagged / QuestionUnflagged share their topic with the adapter's (same signature): the emitting address
 * tells them apart.
 */
export const negRiskOperatorAbi = parseAbi([
  "function questionIds(bytes32 requestId) view returns (bytes32)",
  "function nrAdapter() view returns (address)",
  "event QuestionFlagged(bytes32 indexed questionId)",
  "event QuestionUnflagged(bytes32 indexed questionId)",
  "event QuestionEmergencyResolved(bytes32 indexed questionId, bool result)",
]);

/** Polymarket's UmaSportsOracle (Polymarket/uma-sports-oracle src/interfaces/IUmaSportsOracle.sol). */
export const umaSportsOracleAbi = parseAbi([
  "event MarketCreated(bytes32 indexed marketId, bytes32 indexed gameId, bytes32 indexed conditionId, uint8 marketType, uint8 underdog, uint256 line)",
  "event GameReset(bytes32 indexed gameId)",
  "event GameSettled(bytes32 indexed gameId, uint256 indexed home, uint256 indexed away)",
  "event GameEmergencySettled(bytes32 indexed gameId, uint256 indexed home, uint256 indexed away)",
  "event GameCanceled(bytes32 indexed gameId)",
  "event GamePaused(bytes32 indexed gameId)",
  "event GameUnpaused(bytes32 indexed gameId)",
  "event MarketPaused(bytes32 indexed marketId)",
  "event MarketUnpaused(bytes32 indexed marketId)",
  "event MarketEmergencyResolved(bytes32 indexed marketId, uint256[] payouts)",
]);

/** VotingV2 events the mainnet scan collects, in one eth_getLogs per block range (topic0 OR-list). */
export const VOTING_SCAN_EVENTS = [
  "Staked",
  "VoteCommitted",
  "VoteRevealed",
  "RequestAdded",
  "RequestRolled",
  "RequestResolved",
  "RequestDeleted",
] as const;
