/**
 * The validator of every address argument of the provider: `0x` and 40 hex digits, and in mixed case a valid
 * EIP-55 checksum (lib/domain/address.ts), so that a mistyped character is an error naming the attribute.
 */
import { addressProblem } from "../../domain/address";
import { validator } from "../framework";

/** An address attribute's validator. */
export const addressValidator = validator(
  "an address: 0x followed by 40 hex digits, in lowercase or with a valid EIP-55 checksum",
  (text: string) => addressProblem(text),
);
