/**
 * Environments as fixtures (docs/fixtures.md), local extras of the API: `GET .../environments/{id}/export` answers
 * the fixture file, `POST .../environments/import` takes one as its body, `POST .../environments/{id}/clone` makes a
 * new environment from an existing one's current state.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Slug } from "./common";
import { EnvironmentDisplayName } from "./environments";

/** `POST .../environments/import` query: the new environment's slug and name, the fixture's when left out. */
export const ImportEnvironmentQuery = Type.Object(
  {
    slug: Type.Optional(Slug),
    display_name: Type.Optional(EnvironmentDisplayName),
  },
  { additionalProperties: false },
);
export type ImportEnvironmentQuery = Static<typeof ImportEnvironmentQuery>;

/** `POST .../environments/{id}/clone` body: the clone's name, and its slug (else made from the name, as a create's). */
export const CloneEnvironmentRequest = Type.Object(
  {
    display_name: EnvironmentDisplayName,
    slug: Type.Optional(Slug),
  },
  { additionalProperties: false },
);
export type CloneEnvironmentRequest = Static<typeof CloneEnvironmentRequest>;

/** The media type of a fixture file. */
export const FIXTURE_MEDIA_TYPE = "application/octet-stream";
