/** The provider's functions, called in HCL as `provider::chainform::NAME(...)` (Terraform 1.8 and later). */
import type { ProviderFunction } from "../../framework";
import { checksumAddressFunction } from "./address";
import { etherFunction, formatUnitsFunction, parseUnitsFunction } from "./units";
import { blockNumberFromHexFunction, blockNumberToHexFunction } from "./block-numbers";
import { slugFunction } from "./slug";

/** Every function of the provider. */
export const chainformFunctions: readonly ProviderFunction[] = [
  etherFunction,
  parseUnitsFunction,
  formatUnitsFunction,
  blockNumberToHexFunction,
  blockNumberFromHexFunction,
  checksumAddressFunction,
  slugFunction,
];
