/**
 * Where the local service's bridge contract (`ChainformBridge`, contracts/ChainformBridge.sol) sits on every Virtual
 * Environment of a bridge-enabled environment: a fixed address, the same on every chain. The service places it
 * there; the provider reports it as `vnets[*].bridge_address`. The hosted service documents no bridge address.
 */
export const BRIDGE_ADDRESS = "0x00000000000000000000000000000000c4a1b71d";
