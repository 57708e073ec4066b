// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Simulation probe contracts
/// @notice Test fixtures for chainform's simulation and transaction tests: a minimal ERC-20 token, a logic
/// contract reached by DELEGATECALL, and a probe that nests CALL and DELEGATECALL and reports the block it ran in.

/// @notice A minimal ERC-20 token (anyone may mint: it is a fixture).
contract ProbeToken {
    string public constant name = "Probe Token";
    string public constant symbol = "PRB";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function mint(address to, uint256 value) external {
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
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
        require(allowed >= value, "ProbeToken: allowance");
        allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) private {
        require(balanceOf[from] >= value, "ProbeToken: balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

/// @notice Logic run by DELEGATECALL: it writes the caller's storage slot 0 and emits from the caller's address.
contract ProbeLogic {
    uint256 public counter;

    event Bumped(uint256 counter);

    function bump() external returns (uint256) {
        counter += 1;
        emit Bumped(counter);
        return counter;
    }
}

/// @notice Nests calls: CALL into a token, DELEGATECALL into logic, and reports what block it saw.
contract SimulationProbe {
    uint256 public counter; // slot 0, shared with ProbeLogic through DELEGATECALL

    event Observed(uint256 blockNumber, uint256 timestamp, uint256 senderBalance);

    /// @notice Moves `amount` of the probe's tokens to `to` (CALL), then bumps through `logic` (DELEGATECALL).
    function run(ProbeToken token, address logic, address to, uint256 amount) external returns (uint256) {
        require(token.transfer(to, amount), "SimulationProbe: transfer");
        (bool ok, bytes memory out) = logic.delegatecall(abi.encodeCall(ProbeLogic.bump, ()));
        require(ok, "SimulationProbe: bump");
        return abi.decode(out, (uint256));
    }

    /// @notice Emits the block number, timestamp and sender balance it ran with.
    function observe() external payable {
        emit Observed(block.number, block.timestamp, msg.sender.balance);
    }

    /// @notice Always reverts.
    function fail() external pure {
        revert("SimulationProbe: failed on purpose");
    }
}
