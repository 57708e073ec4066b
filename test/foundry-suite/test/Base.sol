// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// The cheatcodes the suite uses (forge-std is not needed: the suite builds offline from this repository alone).
interface Vm {
    function prank(address who) external;
    function startPrank(address who) external;
    function stopPrank() external;
    function expectRevert(bytes calldata message) external;
    function warp(uint256 timestamp) external;
    function deal(address who, uint256 amount) external;
}

/// What every test shares: the cheatcodes, assertions, and reads of the fork's own accounts.
abstract contract Base {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
    /// Funded with 100 ether by the environment the suite runs against (bench/rpc.ts, test/rpc-foundry.test.ts).
    address internal constant FUNDED = address(0xa11ce);
    /// Fresh accounts each test reads from the fork: what makes a fork suite chatty (balance, nonce, code each).
    uint256 internal constant ACCOUNTS_PER_TEST = 250;

    address internal constant ALICE = address(0xA11CE0);
    address internal constant BOB = address(0xB0B0);
    address internal constant CAROL = address(0xCA401);

    function assertEq(uint256 a, uint256 b, string memory what) internal pure {
        if (a != b) revert(string.concat(what, ": values differ"));
    }

    function assertTrue(bool condition, string memory what) internal pure {
        if (!condition) revert(what);
    }

    /// Reads `ACCOUNTS_PER_TEST` accounts the fork has never seen (so each is fetched through the fork URL); all empty.
    function readFreshAccounts(uint256 seed) internal view {
        uint256 total;
        for (uint256 i = 0; i < ACCOUNTS_PER_TEST; i++) {
            address account = address(uint160(uint256(keccak256(abi.encode("chainform suite", seed, i)))));
            total += account.balance + account.code.length;
        }
        assertEq(total, 0, "fresh accounts hold nothing");
    }
}
