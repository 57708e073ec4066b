// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title ChainformToken
/// @notice An ordinary ERC-20 token for chainform's declarative chain state: examples and acceptance tests deploy it
/// with `chainform_contract` and fund holders with `chainform_erc20_balance`. Its balance mapping deliberately does
/// not sit at storage slot 0 (an owner, the metadata and the supply come first), as in most real tokens, so that
/// the Admin RPC's ERC-20 methods must find the slot rather than assume it.
contract ChainformToken {
    address public owner;
    string public name;
    string public symbol;
    uint8 public decimals;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    /// @param name_ The token's name; must not be empty.
    /// @param symbol_ The token's symbol; must not be empty.
    /// @param decimals_ Decimal places, at most 36.
    /// @param initialSupply Tokens minted to the deployer.
    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 initialSupply) {
        require(bytes(name_).length > 0, "ChainformToken: empty name");
        require(bytes(symbol_).length > 0, "ChainformToken: empty symbol");
        require(decimals_ <= 36, "ChainformToken: too many decimals");
        owner = msg.sender;
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        totalSupply = initialSupply;
        balanceOf[msg.sender] = initialSupply;
        emit Transfer(address(0), msg.sender, initialSupply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "ChainformToken: allowance");
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) private {
        require(balanceOf[from] >= value, "ChainformToken: balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
