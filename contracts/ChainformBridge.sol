// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title ChainformBridge
/// @notice The bridge every Virtual Environment of a bridge-enabled chainform environment carries at a fixed
/// address. A deposit locks native currency and names a destination chain and recipient; the local service
/// (the only relayer) watches `Deposited` events and pays the recipient out on the destination chain.
/// @dev Placed with `anvil_setCode`, so it has no constructor and no immutables: the relayer is a constant.
contract ChainformBridge {
    /// @notice The local service's relayer account (impersonated by the service, never a real key).
    address public constant RELAYER = 0x00000000000000000000000000000000C4A1E1a7;

    /// @notice Deposits made on this chain so far; part of every deposit id.
    uint256 public depositCount;
    /// @notice Deposit ids already paid out on this chain.
    mapping(bytes32 => bool) public relayed;

    /// @notice A deposit to be relayed to `destinationChainId`.
    event Deposited(
        bytes32 indexed depositId,
        uint256 indexed destinationChainId,
        address indexed sender,
        address recipient,
        uint256 amount
    );

    /// @notice A deposit from `sourceChainId` paid out to `recipient` on this chain.
    event Relayed(bytes32 indexed depositId, uint256 indexed sourceChainId, address indexed recipient, uint256 amount);

    error NotRelayer();
    error AlreadyRelayed(bytes32 depositId);
    error NothingDeposited();
    error SameChain();
    error PayoutFailed();

    /// @notice Locks `msg.value` for `recipient` on `destinationChainId`.
    function deposit(uint256 destinationChainId, address recipient) external payable returns (bytes32 depositId) {
        if (msg.value == 0) revert NothingDeposited();
        if (destinationChainId == block.chainid) revert SameChain();
        depositId = keccak256(abi.encode(block.chainid, address(this), depositCount++));
        emit Deposited(depositId, destinationChainId, msg.sender, recipient, msg.value);
    }

    /// @notice Pays out a deposit made on `sourceChainId`; only the relayer, once per deposit id.
    function relay(bytes32 depositId, uint256 sourceChainId, address payable recipient, uint256 amount) external {
        if (msg.sender != RELAYER) revert NotRelayer();
        if (relayed[depositId]) revert AlreadyRelayed(depositId);
        relayed[depositId] = true;
        emit Relayed(depositId, sourceChainId, recipient, amount);
        (bool ok, ) = recipient.call{value: amount}("");
        if (!ok) revert PayoutFailed();
    }

    receive() external payable {}
}
