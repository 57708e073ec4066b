/**
 * The standard interfaces chainform names calls and events by, whatever contract they come from: written here once as
 * human-readable ABI lines from their EIPs and published interfaces, for the chain engine's answers and the pages
 * alike (./decoder.ts). Outputs are named, so that a decoded result says what it is (`success`, `balance`).
 *
 * Order matters: where two interfaces share a function selector, the first definition wins (ERC-20's `approve`,
 * `transferFrom` and `balanceOf` before ERC-721's). Events that share a topic are told apart by how many topics they
 * index, so both shapes are kept (ERC-20 and ERC-721 `Transfer`; WETH's and ERC-4626's `Deposit`).
 */

/** ERC-20 and its EIP-2612 permit. */
const ERC20 = [
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
  "function transfer(address to, uint256 value) returns (bool success)",
  "function transferFrom(address from, address to, uint256 value) returns (bool success)",
  "function approve(address spender, uint256 value) returns (bool success)",
  "function balanceOf(address account) view returns (uint256 balance)",
  "function allowance(address owner, address spender) view returns (uint256 remaining)",
  "function totalSupply() view returns (uint256 supply)",
  "function name() view returns (string name)",
  "function symbol() view returns (string symbol)",
  "function decimals() view returns (uint8 decimals)",
  "function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)",
  "function nonces(address owner) view returns (uint256 nonce)",
  "function DOMAIN_SEPARATOR() view returns (bytes32 separator)",
];

/** ERC-721: its Transfer and Approval index the token id, so a fourth topic tells them from ERC-20's. */
const ERC721 = [
  "event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)",
  "event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)",
  "event ApprovalForAll(address indexed owner, address indexed operator, bool approved)",
  "function safeTransferFrom(address from, address to, uint256 tokenId)",
  "function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)",
  "function setApprovalForAll(address operator, bool approved)",
  "function ownerOf(uint256 tokenId) view returns (address owner)",
  "function getApproved(uint256 tokenId) view returns (address operator)",
  "function isApprovedForAll(address owner, address operator) view returns (bool approved)",
  "function tokenURI(uint256 tokenId) view returns (string uri)",
];

/** ERC-1155. */
const ERC1155 = [
  "event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)",
  "event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)",
  "event URI(string value, uint256 indexed id)",
  "function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)",
  "function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] values, bytes data)",
  "function balanceOfBatch(address[] accounts, uint256[] ids) view returns (uint256[] balances)",
  "function uri(uint256 id) view returns (string uri)",
];

/** ERC-4626: its Deposit indexes two addresses, WETH's one, so the topic count tells them apart. */
const ERC4626 = [
  "event Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares)",
  "event Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares)",
  "function asset() view returns (address assetTokenAddress)",
  "function totalAssets() view returns (uint256 totalManagedAssets)",
  "function deposit(uint256 assets, address receiver) returns (uint256 shares)",
  "function mint(uint256 shares, address receiver) returns (uint256 assets)",
  "function withdraw(uint256 assets, address receiver, address owner) returns (uint256 shares)",
  "function redeem(uint256 shares, address receiver, address owner) returns (uint256 assets)",
  "function convertToShares(uint256 assets) view returns (uint256 shares)",
  "function convertToAssets(uint256 shares) view returns (uint256 assets)",
  "function previewDeposit(uint256 assets) view returns (uint256 shares)",
  "function previewRedeem(uint256 shares) view returns (uint256 assets)",
];

/** Wrapped ether (WETH9): wrapping is a mint of WETH, unwrapping a burn. */
const WETH = [
  "event Deposit(address indexed dst, uint256 wad)",
  "event Withdrawal(address indexed src, uint256 wad)",
  "function deposit() payable",
  "function withdraw(uint256 wad)",
];

/** A Uniswap V2 pair's and factory's events, so that a swap reads as the explorers show it. */
const UNISWAP_V2 = [
  "event Mint(address indexed sender, uint256 amount0, uint256 amount1)",
  "event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)",
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)",
  "event Sync(uint112 reserve0, uint112 reserve1)",
  "event PairCreated(address indexed token0, address indexed token1, address pair, uint256)",
];

/** Permit2's allowance transfer. */
const PERMIT2 = [
  "event Approval(address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration)",
  "event Permit(address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration, uint48 nonce)",
  "event Lockdown(address indexed owner, address token, address spender)",
  "event NonceInvalidation(address indexed owner, address indexed token, address indexed spender, uint48 newNonce, uint48 oldNonce)",
  "event UnorderedNonceInvalidation(address indexed owner, uint256 word, uint256 mask)",
  "function approve(address token, address spender, uint160 amount, uint48 expiration)",
  "function transferFrom(address from, address to, uint160 amount, address token)",
  "function invalidateNonces(address token, address spender, uint48 newNonce)",
  "function invalidateUnorderedNonces(uint256 wordPos, uint256 mask)",
  "function lockdown((address token, address spender)[] approvals)",
];

/** Proxies: EIP-1967's events, the UUPS (EIP-1822) and transparent proxies' functions, beacons. */
const PROXIES = [
  "event Upgraded(address indexed implementation)",
  "event AdminChanged(address previousAdmin, address newAdmin)",
  "event BeaconUpgraded(address indexed beacon)",
  "function upgradeTo(address newImplementation)",
  "function upgradeToAndCall(address newImplementation, bytes data) payable",
  "function proxiableUUID() view returns (bytes32 uuid)",
  "function implementation() view returns (address implementation)",
  "function changeAdmin(address newAdmin)",
  "function admin() view returns (address admin)",
];

/** Every standard interface, as human-readable ABI lines, in the order their definitions take precedence. */
export const STANDARD_INTERFACES: readonly string[] = [
  ...ERC20,
  ...ERC721,
  ...ERC1155,
  ...ERC4626,
  ...WETH,
  ...UNISWAP_V2,
  ...PERMIT2,
  ...PROXIES,
];

/** Storage slots where proxies keep their implementation (or beacon), and what each holds. */
export const PROXY_SLOTS = [
  { standard: "EIP-1967", holds: "implementation", slot: "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc" },
  { standard: "EIP-1967 beacon", holds: "beacon", slot: "0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50" },
  { standard: "EIP-1822", holds: "implementation", slot: "0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7" },
] as const;
