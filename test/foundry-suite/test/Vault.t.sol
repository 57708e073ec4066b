// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Base} from "./Base.sol";
import {Token} from "../src/Token.sol";
import {Vault} from "../src/Vault.sol";

contract VaultTest is Base {
    Token internal token;
    Vault internal vault;

    function setUp() public {
        token = new Token();
        vault = new Vault(token);
        token.mint(ALICE, 1_000 ether);
        token.mint(BOB, 1_000 ether);
        vm.prank(ALICE);
        token.approve(address(vault), type(uint256).max);
        vm.prank(BOB);
        token.approve(address(vault), type(uint256).max);
    }

    function deposit(address who, uint256 amount) internal returns (uint256) {
        vm.prank(who);
        return vault.deposit(amount);
    }

    function test_firstDepositMintsOneToOne() public {
        readFreshAccounts(101);
        assertEq(deposit(ALICE, 100 ether), 100 ether, "shares");
        assertEq(vault.totalAssets(), 100 ether, "assets");
    }

    function test_secondDepositIsProportional() public {
        readFreshAccounts(102);
        deposit(ALICE, 100 ether);
        assertEq(deposit(BOB, 50 ether), 50 ether, "bob's shares");
        assertEq(vault.totalShares(), 150 ether, "total");
    }

    function test_donationRaisesShareWorth() public {
        readFreshAccounts(103);
        deposit(ALICE, 100 ether);
        vm.prank(BOB);
        token.transfer(address(vault), 100 ether);
        assertEq(vault.previewRedeem(100 ether), 200 ether, "worth");
        assertEq(deposit(BOB, 100 ether), 50 ether, "fewer shares after the donation");
    }

    function test_redeemReturnsAssets() public {
        readFreshAccounts(104);
        deposit(ALICE, 100 ether);
        vm.prank(ALICE);
        assertEq(vault.redeem(40 ether), 40 ether, "assets");
        assertEq(token.balanceOf(ALICE), 940 ether, "alice");
    }

    function test_redeemMoreThanSharesReverts() public {
        readFreshAccounts(105);
        deposit(ALICE, 1 ether);
        vm.prank(ALICE);
        vm.expectRevert(bytes("shares"));
        vault.redeem(2 ether);
    }

    function test_zeroDepositReverts() public {
        readFreshAccounts(106);
        vm.prank(ALICE);
        vm.expectRevert(bytes("zero"));
        vault.deposit(0);
    }

    function test_depositWithoutAllowanceReverts() public {
        readFreshAccounts(107);
        token.mint(CAROL, 1 ether);
        vm.prank(CAROL);
        vm.expectRevert(bytes("allowance"));
        vault.deposit(1 ether);
    }

    function test_pausedVaultRefusesDeposits() public {
        readFreshAccounts(108);
        vault.setPaused(true);
        vm.prank(ALICE);
        vm.expectRevert(bytes("paused"));
        vault.deposit(1 ether);
    }

    function test_pausedVaultStillRedeems() public {
        readFreshAccounts(109);
        deposit(ALICE, 10 ether);
        vault.setPaused(true);
        vm.prank(ALICE);
        assertEq(vault.redeem(10 ether), 10 ether, "redeemed");
    }

    function test_onlyOwnerPauses() public {
        readFreshAccounts(110);
        vm.prank(BOB);
        vm.expectRevert(bytes("only owner"));
        vault.setPaused(true);
    }

    function test_feeIsKeptOnRedeem() public {
        readFreshAccounts(111);
        vault.setFee(100);
        deposit(ALICE, 100 ether);
        vm.prank(ALICE);
        vault.redeem(100 ether);
        assertEq(token.balanceOf(ALICE), 999 ether, "alice paid 1%");
        assertEq(vault.fees(), 1 ether, "fees");
    }

    function test_feeCapped() public {
        readFreshAccounts(112);
        vm.expectRevert(bytes("fee too high"));
        vault.setFee(1_001);
    }

    function test_collectFees() public {
        readFreshAccounts(113);
        vault.setFee(1_000);
        deposit(BOB, 10 ether);
        vm.prank(BOB);
        vault.redeem(10 ether);
        vault.collectFees(CAROL);
        assertEq(token.balanceOf(CAROL), 1 ether, "carol got the fees");
        assertEq(vault.fees(), 0, "no fees left");
    }

    function test_feesDoNotCountAsAssets() public {
        readFreshAccounts(114);
        vault.setFee(500);
        deposit(ALICE, 100 ether);
        deposit(BOB, 100 ether);
        vm.prank(ALICE);
        vault.redeem(100 ether);
        assertEq(vault.totalAssets(), 100 ether, "bob's assets only");
    }

    function test_manyDepositors() public {
        readFreshAccounts(115);
        for (uint256 i = 1; i <= 20; i++) {
            address who = address(uint160(0x2000 + i));
            token.mint(who, 1 ether);
            vm.startPrank(who);
            token.approve(address(vault), 1 ether);
            vault.deposit(1 ether);
            vm.stopPrank();
        }
        assertEq(vault.totalShares(), 20 ether, "shares");
    }

    function test_timeDoesNotChangeShares() public {
        readFreshAccounts(116);
        deposit(ALICE, 5 ether);
        vm.warp(block.timestamp + 365 days);
        assertEq(vault.previewRedeem(5 ether), 5 ether, "worth");
    }
}
