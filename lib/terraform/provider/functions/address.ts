/** `checksum_address`: an address in its EIP-55 spelling (lib/domain/address.ts). */
import { cty, defineFunction, type FunctionParameter } from "../../framework";
import { addressProblem, checksumAddress } from "../../../domain/address";
import { argumentError } from "./arguments";

const parameters: FunctionParameter[] = [
  { name: "address", type: cty.string, description: "An address: `0x` and 40 hex digits, in any letter case." },
];

/** `provider::chainform::checksum_address("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")` = `"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"`. */
export const checksumAddressFunction = defineFunction({
  name: "checksum_address",
  summary: "An address in its EIP-55 mixed-case checksummed spelling.",
  description:
    'The EIP-55 checksummed spelling of an address: `provider::chainform::checksum_address("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")` is `"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"`. An address in one letter case is taken as it is; a mixed-case one must already pass its checksum (a wrong one usually means a mistyped digit), so the function also checks addresses pasted from elsewhere.',
  parameters,
  returns: cty.string,
  run([address]) {
    const text = String(address).trim();
    const problem = addressProblem(text);
    if (problem) argumentError(parameters, 0, problem);
    return checksumAddress(text);
  },
});
