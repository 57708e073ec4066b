/**
 * Unknown values: Terraform's "known after apply". They arrive as msgpack extension 0, or as extension 12 when
 * Terraform knows something about the eventual value (a refinement).
 */

/** What Terraform promised about an unknown value's eventual value (cty refinements); every field is optional. */
export interface Refinement {
  /** The value will not be null. */
  readonly notNull?: boolean;
  /** A string value will start with this prefix. */
  readonly stringPrefix?: string;
  /** A number value's lower bound and whether it is inclusive. */
  readonly numberMin?: readonly [number, boolean];
  /** A number value's upper bound and whether it is inclusive. */
  readonly numberMax?: readonly [number, boolean];
  /** A collection's minimum length. */
  readonly lengthMin?: number;
  /** A collection's maximum length. */
  readonly lengthMax?: number;
}

// A registered symbol, so that two copies of this module (say, a bundle and a test) still agree on what is unknown.
const UNKNOWN_BRAND = Symbol.for("chainform.cty.unknown");

/** An unknown value, optionally refined. Compare with {@link isUnknown}, never with `===`. */
export class UnknownValue {
  /** Brand checked by {@link isUnknown}. */
  readonly [UNKNOWN_BRAND] = true;
  /** What is known about the eventual value, when Terraform said anything. */
  readonly refinement?: Refinement;

  constructor(refinement?: Refinement) {
    if (refinement && Object.keys(refinement).length > 0) this.refinement = refinement;
    Object.freeze(this);
  }

  /** Rendered in logs and test failures. */
  toString(): string {
    return "(known after apply)";
  }
}

/**
 * The unknown value ("known after apply"). Put it in a planned state for a value only the apply can tell.
 * @example
 * planned.id = Unknown;
 */
export const Unknown: UnknownValue = new UnknownValue();

/** The type of {@link Unknown}. */
export type Unknown = UnknownValue;

/**
 * Whether a value is unknown (refined or not).
 * @example
 * if (isUnknown(config.name)) return; // validate only what is known
 */
export function isUnknown(value: unknown): value is UnknownValue {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[UNKNOWN_BRAND] === true;
}
