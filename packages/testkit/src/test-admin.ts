/** The administrator every feature test authenticates as (requests send these credentials by default). */
export const testAdmin = { user: 'root', password: 'root-password' } as const;

/**
 * The environment that makes test kernels hash passwords at the lowest cost `[auth] password_hash_cost` allows: each
 * start hashes the administrator's password and checks it at the first request, which at the default cost was most of
 * a test kernel's start.
 */
export const testPasswordHashCost = { VIGIE_AUTH__PASSWORD_HASH_COST: '10' } as const;
