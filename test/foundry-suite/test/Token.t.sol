// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Base} from "./Base.sol";
import {Token} from "../src/Token.sol";

contract TokenTest is Base {
    Token internal token;

    function setUp() public {
        token = new Token();
        token.mint(ALICE, 1_000 ether);
    }

    function test_metadata() public {
        readFreshAccounts(1);
        assertEq(token.decimals(), 18, "decimals");
        assertEq(bytes(token.symbol()).length, 5, "symbol");
    }

    function test_mintRaisesSupply() public {
        readFreshAccounts(2);
        token.mint(BOB, 5 ether);
        assertEq(token.totalSupply(), 1_005 ether, "supply");
        assertEq(token.balanceOf(BOB), 5 ether, "bob");
    }

    function test_onlyOwnerMints() public {
        readFreshAccounts(3);
        vm.prank(BOB);
        vm.expectRevert(bytes("only owner"));
        token.mint(BOB, 1);
    }

    function test_transfer() public {
        readFreshAccounts(4);
        vm.prank(ALICE);
        token.transfer(BOB, 10 ether);
        assertEq(token.balanceOf(ALICE), 990 ether, "alice");
        assertEq(token.balanceOf(BOB), 10 ether, "bob");
    }

    function test_transferMoreThanBalanceReverts() public {
        readFreshAccounts(5);
        vm.prank(BOB);
        vm.expectRevert(bytes("balance"));
        token.transfer(ALICE, 1);
    }

    function test_transferToZeroReverts() public {
        readFreshAccounts(6);
        vm.prank(ALICE);
        vm.expectRevert(bytes("zero address"));
        token.transfer(address(0), 1);
    }

    function test_approveAndTransferFrom() public {
        readFreshAccounts(7);
        vm.prank(ALICE);
        token.approve(BOB, 50 ether);
        vm.prank(BOB);
        token.transferFrom(ALICE, CAROL, 20 ether);
        assertEq(token.allowance(ALICE, BOB), 30 ether, "allowance left");
        assertEq(token.balanceOf(CAROL), 20 ether, "carol");
    }

    function test_transferFromWithoutAllowanceReverts() public {
        readFreshAccounts(8);
        vm.prank(BOB);
        vm.expectRevert(bytes("allowance"));
        token.transferFrom(ALICE, BOB, 1);
    }

    function test_infiniteAllowanceStays() public {
        readFreshAccounts(9);
        vm.prank(ALICE);
        token.approve(BOB, type(uint256).max);
        vm.prank(BOB);
        token.transferFrom(ALICE, BOB, 1 ether);
        assertEq(token.allowance(ALICE, BOB), type(uint256).max, "allowance");
    }

    function test_burn() public {
        readFreshAccounts(10);
        vm.prank(ALICE);
        token.burn(100 ether);
        assertEq(token.totalSupply(), 900 ether, "supply");
    }

    function test_burnMoreThanBalanceReverts() public {
        readFreshAccounts(11);
        vm.prank(BOB);
        vm.expectRevert(bytes("balance"));
        token.burn(1);
    }

    function test_transferToManyHolders() public {
        readFreshAccounts(12);
        vm.startPrank(ALICE);
        for (uint256 i = 1; i <= 50; i++) token.transfer(address(uint160(0x1000 + i)), 1 ether);
        vm.stopPrank();
        assertEq(token.balanceOf(ALICE), 950 ether, "alice");
        assertEq(token.balanceOf(address(0x1032)), 1 ether, "last holder");
    }

    function test_fundedAccountFromTheFork() public {
        readFreshAccounts(13);
        assertEq(FUNDED.balance, 100 ether, "the environment funded it");
    }

    function test_dealOnTheFork() public {
        readFreshAccounts(14);
        vm.deal(BOB, 3 ether);
        assertEq(BOB.balance, 3 ether, "dealt");
    }

    function test_sendEtherBetweenAccounts() public {
        readFreshAccounts(15);
        vm.deal(ALICE, 2 ether);
        vm.prank(ALICE);
        (bool ok, ) = payable(CAROL).call{value: 1 ether}("");
        assertTrue(ok, "sent");
        assertEq(CAROL.balance, 1 ether, "carol");
    }

    function test_chainIdIsTheEnvironments() public {
        readFreshAccounts(16);
        assertTrue(block.chainid != 0, "chain id");
        assertTrue(block.number > 0 || block.timestamp > 0, "a block");
    }
}
