// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

// The part of Multicall3 (0xcA11bde05977b3631167028862bE2a173976CA11) that viem's `multicall` uses. Placed at the
// canonical address with anvil_setCode, so the app's unmodified viem chains find it as on mainnet and Polygon.
contract Multicall3 {
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function aggregate3(Call3[] calldata calls) public payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory ret) = calls[i].target.call(calls[i].callData);
            require(calls[i].allowFailure || success, "Multicall3: call failed");
            returnData[i] = Result(success, ret);
        }
    }

    function getBlockNumber() public view returns (uint256) {
        return block.number;
    }

    function getCurrentBlockTimestamp() public view returns (uint256) {
        return block.timestamp;
    }
}
