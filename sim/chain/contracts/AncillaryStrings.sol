// SPDX-License-Identifier: AGPL-3.0-only
pragma solidity ^0.8.20;

// The `,key:value` encoding UMA's AncillaryData library uses: lowercase hex without 0x for bytes32 and addresses,
// decimal for integers, no leading comma on empty data.
library AncillaryStrings {
    bytes16 private constant HEX = "0123456789abcdef";

    function toHex(bytes32 value) internal pure returns (bytes memory out) {
        out = new bytes(64);
        for (uint256 i = 0; i < 32; i++) {
            out[2 * i] = HEX[uint8(value[i]) >> 4];
            out[2 * i + 1] = HEX[uint8(value[i]) & 0x0f];
        }
    }

    function toHex(address account) internal pure returns (bytes memory out) {
        bytes20 value = bytes20(account);
        out = new bytes(40);
        for (uint256 i = 0; i < 20; i++) {
            out[2 * i] = HEX[uint8(value[i]) >> 4];
            out[2 * i + 1] = HEX[uint8(value[i]) & 0x0f];
        }
    }

    function toDecimal(uint256 value) internal pure returns (bytes memory out) {
        if (value == 0) return "0";
        uint256 length;
        for (uint256 v = value; v != 0; v /= 10) length++;
        out = new bytes(length);
        while (value != 0) {
            length--;
            out[length] = bytes1(uint8(48 + (value % 10)));
            value /= 10;
        }
    }

    function append(bytes memory data, bytes memory key, bytes memory value) internal pure returns (bytes memory) {
        return data.length == 0 ? abi.encodePacked(key, ":", value) : abi.encodePacked(data, ",", key, ":", value);
    }
}
