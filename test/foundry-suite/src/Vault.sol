// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Token} from "./Token.sol";

/// A small share vault over one token: deposits mint shares, withdrawals burn them, donations raise every share's
/// worth, the owner pauses deposits and takes a withdrawal fee.
contract Vault {
    Token public immutable asset;
    address public immutable owner;
    uint256 public totalShares;
    uint256 public feeBps;
    uint256 public fees;
    bool public paused;
    mapping(address => uint256) public sharesOf;

    event Deposit(address indexed who, uint256 assets, uint256 shares);
    event Withdraw(address indexed who, uint256 assets, uint256 shares);

    constructor(Token asset_) {
        asset = asset_;
        owner = msg.sender;
    }

    function totalAssets() public view returns (uint256) {
        return asset.balanceOf(address(this)) - fees;
    }

    function previewDeposit(uint256 assets) public view returns (uint256) {
        return totalShares == 0 ? assets : (assets * totalShares) / totalAssets();
    }

    function previewRedeem(uint256 shares) public view returns (uint256) {
        return totalShares == 0 ? 0 : (shares * totalAssets()) / totalShares;
    }

    function deposit(uint256 assets) external returns (uint256 shares) {
        require(!paused, "paused");
        require(assets > 0, "zero");
        shares = previewDeposit(assets);
        require(asset.transferFrom(msg.sender, address(this), assets), "transfer");
        totalShares += shares;
        sharesOf[msg.sender] += shares;
        emit Deposit(msg.sender, assets, shares);
    }

    function redeem(uint256 shares) external returns (uint256 assets) {
        require(shares > 0 && sharesOf[msg.sender] >= shares, "shares");
        assets = previewRedeem(shares);
        sharesOf[msg.sender] -= shares;
        totalShares -= shares;
        uint256 fee = (assets * feeBps) / 10_000;
        fees += fee;
        require(asset.transfer(msg.sender, assets - fee), "transfer");
        emit Withdraw(msg.sender, assets - fee, shares);
    }

    function setPaused(bool value) external {
        require(msg.sender == owner, "only owner");
        paused = value;
    }

    function setFee(uint256 bps) external {
        require(msg.sender == owner, "only owner");
        require(bps <= 1_000, "fee too high");
        feeBps = bps;
    }

    function collectFees(address to) external {
        require(msg.sender == owner, "only owner");
        uint256 amount = fees;
        fees = 0;
        require(asset.transfer(to, amount), "transfer");
    }
}
