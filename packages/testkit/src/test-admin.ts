/** The administrator every feature test authenticates as (requests send these credentials by default). */
export const testAdmin = { user: 'root', password: 'root-password' } as const;
