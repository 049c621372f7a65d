/** The seeded user the shell's browser tests sign in as (a division-level user with a train list). */
export const SHELL_USER_ID = process.env.HHT_E2E_SHELL_USER ?? 'DLIDA01';
