/**
 * The store's own tables (principals, projects, environments, vnets, transaction records, simulations): the first
 * migration of the service's database (./database.ts runs the migrations of every owner in order).
 */

/** Migration 1: the service's records. */
export const STORE_TABLES = `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE principals (
    id TEXT PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL CHECK (type IN ('user', 'organization')),
    first_name TEXT NOT NULL DEFAULT '',
    last_name TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    position INTEGER NOT NULL
  );
  CREATE TABLE org_members (
    org_id TEXT NOT NULL REFERENCES principals(id),
    user_id TEXT NOT NULL REFERENCES principals(id),
    role TEXT NOT NULL CHECK (role IN ('owner', 'member')),
    accepted INTEGER NOT NULL,
    PRIMARY KEY (org_id, user_id)
  );
  CREATE TABLE access_keys (
    key TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES principals(id),
    read_only INTEGER NOT NULL
  );
  CREATE TABLE projects (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL REFERENCES principals(id),
    slug TEXT NOT NULL,
    name TEXT NOT NULL,
    public INTEGER NOT NULL,
    restricted INTEGER NOT NULL,
    high_volume INTEGER NOT NULL,
    in_transfer INTEGER NOT NULL,
    is_module INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    last_push_at TEXT,
    options TEXT,
    UNIQUE (owner_id, slug)
  );
  CREATE TABLE project_members (
    project_id TEXT NOT NULL REFERENCES projects(id),
    user_id TEXT NOT NULL REFERENCES principals(id),
    accepted INTEGER NOT NULL,
    added_at TEXT NOT NULL,
    PRIMARY KEY (project_id, user_id)
  );
  CREATE TABLE delivery_channels (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL REFERENCES principals(id),
    project_id TEXT REFERENCES projects(id),
    type TEXT NOT NULL,
    label TEXT NOT NULL,
    reference_id TEXT NOT NULL,
    enabled INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    information TEXT NOT NULL
  );
  CREATE TABLE actions (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    name TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running', 'stopped'))
  );
  CREATE TABLE networks (
    chain_id TEXT PRIMARY KEY,
    position INTEGER NOT NULL,
    network_name TEXT NOT NULL,
    explorer_slug TEXT NOT NULL,
    node_rpc_slug TEXT NOT NULL,
    vnet_rpc_slug TEXT NOT NULL,
    virtual_testnet INTEGER NOT NULL,
    node INTEGER NOT NULL,
    explorer INTEGER NOT NULL,
    simulator INTEGER NOT NULL,
    monitoring INTEGER NOT NULL,
    latest_block INTEGER NOT NULL
  );
  CREATE TABLE environments (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL REFERENCES projects(id),
    slug TEXT NOT NULL,
    display_name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    instance_id TEXT NOT NULL UNIQUE,
    network_configs TEXT NOT NULL,
    bridge_config TEXT NOT NULL,
    UNIQUE (project_id, slug)
  );
  CREATE TABLE vnets (
    id TEXT PRIMARY KEY,
    environment_id TEXT NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    network_entry_id TEXT NOT NULL,
    network_id TEXT NOT NULL,
    network_name TEXT NOT NULL,
    chain_id INTEGER NOT NULL,
    display_name TEXT NOT NULL,
    slug TEXT NOT NULL,
    block_number TEXT NOT NULL,
    accounts TEXT NOT NULL,
    admin_secret TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL
  );
  CREATE INDEX vnets_by_environment ON vnets (environment_id, position);
  CREATE TABLE transactions (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    vnet_id TEXT NOT NULL REFERENCES vnets(id) ON DELETE CASCADE,
    instance_id TEXT NOT NULL,
    hash TEXT NOT NULL,
    status TEXT NOT NULL,
    category TEXT NOT NULL,
    kind TEXT NOT NULL,
    from_address TEXT NOT NULL,
    to_address TEXT,
    record TEXT NOT NULL,
    UNIQUE (vnet_id, hash)
  );
  CREATE INDEX transactions_by_instance ON transactions (instance_id, seq);
  CREATE TABLE simulations (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL REFERENCES projects(id),
    record TEXT NOT NULL
  );
  CREATE INDEX simulations_by_project ON simulations (project_id, seq);
  `;
