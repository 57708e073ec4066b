/** What the hosted routes declare as their answers' schema. */
import { Type } from "@sinclair/typebox";

/**
 * A hosted answer: its shape is the hosted clients' (vnet-view.ts and each family's mapping function make it), and
 * it is serialized as it is made. Errors still take the spec's error body (`replies`).
 */
export const HOSTED_ANSWER = Type.Unknown({ description: "the hosted clients' shape" });
