/**
 * The standard interfaces every page decodes, verified or not, written as human-readable ABI from their EIPs: ERC-20
 * (with EIP-2612 permit), ERC-721, ERC-1155, ERC-4626, WETH, Permit2's approvals, and the proxy patterns (EIP-1967,
 * EIP-1822, beacons). They take precedence over the generated signature table (signatures.json), which only fills in
 * what they leave out.
 */

/** ERC-20 and EIP-2612. */
const ERC20 = [
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
  "function transfer(address to, uint256 value) returns (bool)",
  "function transferFrom(address from, address to, uint256 value) returns (bool)",
  "function approve(address spender, uint256 value) returns (bool)",
  "function balanceOf(address account) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function totalSupply() view returns (uint256)",
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)",
  "function nonces(address owner) view returns (uint256)",
  "function DOMAIN_SEPARATOR() view returns (bytes32)",
];

/** ERC-721 (its Transfer and Approval index the token id: a fourth topic tells them from ERC-20's). */
const ERC721 = [
  "event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)",
  "event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)",
  "event ApprovalForAll(address indexed owner, address indexed operator, bool approved)",
  "function safeTransferFrom(address from, address to, uint256 tokenId)",
  "function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)",
  "function setApprovalForAll(address operator, bool approved)",
  "function ownerOf(uint256 tokenId) view returns (address)",
  "function getApproved(uint256 tokenId) view returns (address)",
  "function isApprovedForAll(address owner, address operator) view returns (bool)",
  "function tokenURI(uint256 tokenId) view returns (string)",
];

/** ERC-1155. */
const ERC1155 = [
  "event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)",
  "event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)",
  "event URI(string value, uint256 indexed id)",
  "function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)",
  "function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] values, bytes data)",
  "function balanceOfBatch(address[] accounts, uint256[] ids) view returns (uint256[])",
  "function uri(uint256 id) view returns (string)",
];

/** ERC-4626 (its Deposit indexes two addresses, WETH's one: the topic count tells them apart). */
const ERC4626 = [
  "event Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares)",
  "event Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares)",
  "function asset() view returns (address)",
  "function totalAssets() view returns (uint256)",
  "function deposit(uint256 assets, address receiver) returns (uint256 shares)",
  "function mint(uint256 shares, address receiver) returns (uint256 assets)",
  "function withdraw(uint256 assets, address receiver, address owner) returns (uint256 shares)",
  "function redeem(uint256 shares, address receiver, address owner) returns (uint256 assets)",
  "function convertToShares(uint256 assets) view returns (uint256)",
  "function convertToAssets(uint256 shares) view returns (uint256)",
  "function previewDeposit(uint256 assets) view returns (uint256)",
  "function previewRedeem(uint256 shares) view returns (uint256)",
];

/** Wrapped ether (WETH9). */
const WETH = [
  "event Deposit(address indexed dst, uint256 wad)",
  "event Withdrawal(address indexed src, uint256 wad)",
  "function deposit() payable",
  "function withdraw(uint256 wad)",
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

/** Proxies: EIP-1967 events, the UUPS (EIP-1822) and transparent proxies' functions, beacons. */
const PROXIES = [
  "event Upgraded(address indexed implementation)",
  "event AdminChanged(address previousAdmin, address newAdmin)",
  "event BeaconUpgraded(address indexed beacon)",
  "function upgradeTo(address newImplementation)",
  "function upgradeToAndCall(address newImplementation, bytes data) payable",
  "function proxiableUUID() view returns (bytes32)",
  "function implementation() view returns (address)",
  "function changeAdmin(address newAdmin)",
  "function admin() view returns (address)",
];

/** Every standard interface, as human-readable ABI lines; the first definition of a selector wins. */
export const STANDARD_SIGNATURES: readonly string[] = [...ERC20, ...ERC721, ...ERC1155, ...ERC4626, ...WETH, ...PERMIT2, ...PROXIES];

/** Storage slots where proxies keep their implementation (or beacon), and what each holds. */
export const PROXY_SLOTS = [
  { standard: "EIP-1967", holds: "implementation", slot: "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc" },
  { standard: "EIP-1967 beacon", holds: "beacon", slot: "0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50" },
  { standard: "EIP-1822", holds: "implementation", slot: "0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7" },
] as const;
