// SPDX-License-Identifier: AGPL-3.0-only
pragma solidity ^0.8.20;

import "./MockUmaCtfAdapter.sol";

// A test double of Polymarket's UmaSportsOracle (Polymarket/uma-sports-oracle src/UmaSportsOracle.sol): a Game is one
// MULTIPLE_VALUES request (UMIP-183 scores) whose gameId is keccak256 of its ancillary data; Markets (winner, spreads,
// totals) are CTF conditions of the oracle keyed by marketId, each announced by MarketCreated with its gameId; a first
// dispute resets the Game (a new request, GameReset), a second only marks the refund; the OO's settle callback settles,
// cancels or resets the Game; the admin pauses, resets and emergency-settles Games and pauses and emergency-resolves
// Markets. The OO is held in storage so the local chain can place this code at the real address. Left out: the CTF
// (no payouts are reported), rewards and bonds, and market resolution from a settled Game (resolveMarket).
contract MockUmaSportsOracle {
    event GameCreated(bytes32 indexed gameId, uint8 ordering, bytes ancillaryData, uint256 timestamp);
    event MarketCreated(bytes32 indexed marketId, bytes32 indexed gameId, bytes32 indexed conditionId, uint8 marketType, uint8 underdog, uint256 line);
    event GameReset(bytes32 indexed gameId);
    event GameSettled(bytes32 indexed gameId, uint256 indexed home, uint256 indexed away);
    event GameEmergencySettled(bytes32 indexed gameId, uint256 indexed home, uint256 indexed away);
    event GameCanceled(bytes32 indexed gameId);
    event GamePaused(bytes32 indexed gameId);
    event GameUnpaused(bytes32 indexed gameId);
    event MarketPaused(bytes32 indexed marketId);
    event MarketUnpaused(bytes32 indexed marketId);
    event MarketEmergencyResolved(bytes32 indexed marketId, uint256[] payouts);

    // Structs.sol GameState / MarketState.
    enum GameState { Created, Settled, Canceled, Paused, EmergencySettled }
    enum MarketState { Created, Resolved, Paused, EmergencyResolved }

    struct Game {
        uint256 timestamp;
        bool reset;
        bool refund;
        bytes ancillaryData;
        GameState state;
    }

    bytes32 public constant IDENTIFIER = "MULTIPLE_VALUES";
    address public optimisticOracle;
    mapping(bytes32 => Game) public games;
    mapping(bytes32 => bytes32) public marketGames;
    mapping(bytes32 => MarketState) public marketStates;

    function seedInit(address oo) external {
        require(optimisticOracle == address(0), "initialized");
        optimisticOracle = oo;
    }

    /// createGame: the data already ends with `,initializer:` (what the real one appends); requested at the block's time.
    function seedCreateGame(bytes memory data) external returns (bytes32 gameId) {
        gameId = keccak256(data);
        require(games[gameId].ancillaryData.length == 0, "GameAlreadyCreated");
        games[gameId] = Game(block.timestamp, false, false, data, GameState.Created);
        _requestData(block.timestamp, data);
        emit GameCreated(gameId, 0, data, block.timestamp);
    }

    /// _createMarket: marketId = keccak256(abi.encode(gameId, marketType, underdog, line, msg.sender)); its condition
    /// is keccak256(abi.encodePacked(oracle, marketId, 2)) (_prepareMarket).
    function createMarket(bytes32 gameId, uint8 marketType, uint8 underdog, uint256 line) external returns (bytes32 marketId) {
        require(games[gameId].ancillaryData.length > 0, "GameDoesNotExist");
        return _announceMarket(gameId, marketType, underdog, line);
    }

    /// A winner, a spreads and a totals market for each game the seed requests itself (the bench's scaled world:
    /// its requests are made and disputed by the OO's bulk helper, so the game is not stored here).
    function seedBulkMarkets(bytes32[] calldata gameIds) external {
        for (uint256 i = 0; i < gameIds.length; i++) {
            _announceMarket(gameIds[i], 0, 0, 0);
            _announceMarket(gameIds[i], 1, 0, 1_500_000);
            _announceMarket(gameIds[i], 2, 0, 2_500_000);
        }
    }

    function _announceMarket(bytes32 gameId, uint8 marketType, uint8 underdog, uint256 line) private returns (bytes32 marketId) {
        marketId = keccak256(abi.encode(gameId, marketType, underdog, line, msg.sender));
        marketGames[marketId] = gameId;
        bytes32 conditionId = keccak256(abi.encodePacked(address(this), marketId, uint256(2)));
        emit MarketCreated(marketId, gameId, conditionId, marketType, underdog, line);
    }

    /// priceDisputed: only the Game's live request counts; a first dispute resets the Game, a second marks the refund.
    function priceDisputed(bytes32, uint256 timestamp, bytes memory ancillaryData, uint256) external {
        require(msg.sender == optimisticOracle, "NotOptimisticOracle");
        bytes32 gameId = keccak256(ancillaryData);
        Game storage game = games[gameId];
        if (game.timestamp != timestamp) return;
        if (game.state == GameState.EmergencySettled) return;
        if (game.reset) {
            game.refund = true;
            return;
        }
        _resetGame(gameId, game);
    }

    /// priceSettled: only the live request of a Created Game; the canceled value cancels, the ignore value resets,
    /// else the scores (HomeVsAway ordering: home in the low 32 bits, away in the next) settle it.
    function priceSettled(bytes32, uint256 timestamp, bytes memory ancillaryData, int256 price) external {
        require(msg.sender == optimisticOracle, "NotOptimisticOracle");
        bytes32 gameId = keccak256(ancillaryData);
        Game storage game = games[gameId];
        if (game.timestamp != timestamp || game.state != GameState.Created) return;
        if (price == type(int256).max) {
            game.state = GameState.Canceled;
            emit GameCanceled(gameId);
            return;
        }
        if (price == type(int256).min) {
            game.refund = false;
            return _resetGame(gameId, game);
        }
        game.state = GameState.Settled;
        emit GameSettled(gameId, uint32(uint256(price)), uint32(uint256(price >> 32)));
    }

    /// pauseGame / unpauseGame (admin): Created <-> Paused.
    function pauseGame(bytes32 gameId) external {
        Game storage game = _game(gameId);
        require(game.state == GameState.Created, "GameCannotBePaused");
        game.state = GameState.Paused;
        emit GamePaused(gameId);
    }

    function unpauseGame(bytes32 gameId) external {
        Game storage game = _game(gameId);
        require(game.state == GameState.Paused, "GameCannotBeUnpaused");
        game.state = GameState.Created;
        emit GameUnpaused(gameId);
    }

    /// resetGame (admin): a Created Game asks again.
    function resetGame(bytes32 gameId) external {
        Game storage game = _game(gameId);
        require(game.state == GameState.Created, "GameCannotBeReset");
        game.refund = false;
        _resetGame(gameId, game);
    }

    /// emergencySettleGame (admin): a Paused Game gets the admin's scores.
    function emergencySettleGame(bytes32 gameId, uint32 home, uint32 away) external {
        Game storage game = _game(gameId);
        require(game.state == GameState.Paused, "GameCannotBeEmergencySettled");
        game.state = GameState.EmergencySettled;
        emit GameEmergencySettled(gameId, home, away);
    }

    /// pauseMarket / unpauseMarket / emergencyResolveMarket (admin): Created <-> Paused -> EmergencyResolved.
    function pauseMarket(bytes32 marketId) external {
        require(marketGames[marketId] != bytes32(0), "MarketDoesNotExist");
        require(marketStates[marketId] == MarketState.Created, "MarketCannotBePaused");
        marketStates[marketId] = MarketState.Paused;
        emit MarketPaused(marketId);
    }

    function unpauseMarket(bytes32 marketId) external {
        require(marketStates[marketId] == MarketState.Paused, "MarketCannotBeUnpaused");
        marketStates[marketId] = MarketState.Created;
        emit MarketUnpaused(marketId);
    }

    function emergencyResolveMarket(bytes32 marketId, uint256[] memory payouts) external {
        require(payouts.length == 2 && payouts[0] + payouts[1] > 0 && payouts[0] <= 1 && payouts[1] <= 1, "InvalidPayouts");
        require(marketGames[marketId] != bytes32(0), "MarketDoesNotExist");
        require(marketStates[marketId] == MarketState.Paused, "MarketCannotBeEmergencyResolved");
        marketStates[marketId] = MarketState.EmergencyResolved;
        emit MarketEmergencyResolved(marketId, payouts);
    }

    function _game(bytes32 gameId) private view returns (Game storage game) {
        game = games[gameId];
        require(game.ancillaryData.length > 0, "GameDoesNotExist");
    }

    function _resetGame(bytes32 gameId, Game storage game) private {
        game.reset = true;
        game.timestamp = block.timestamp;
        _requestData(block.timestamp, game.ancillaryData);
        emit GameReset(gameId);
    }

    function _requestData(uint256 timestamp, bytes memory data) private {
        IAdapterOracle oo = IAdapterOracle(optimisticOracle);
        oo.requestPrice(IDENTIFIER, timestamp, data, address(0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174), 0);
        oo.setCallbacks(IDENTIFIER, timestamp, data, false, true, true);
        oo.setEventBased(IDENTIFIER, timestamp, data);
    }
}
