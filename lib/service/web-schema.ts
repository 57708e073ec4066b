/**
 * The web UI's own table, with its migration: verified contracts, by vnet and lower-case address (read and written by
 * ./web-interface.ts for lib/web/verification). ./store/database.ts runs it with the other owners' migrations.
 */

/** Migration 2 (the web part). Earlier versions created the table on first use (IF NOT EXISTS, so such a database migrates as it is). */
export const WEB_TABLES = `
  CREATE TABLE IF NOT EXISTS web_verified_contracts (
    vnet_id TEXT NOT NULL, address TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (vnet_id, address)
  );
`;
