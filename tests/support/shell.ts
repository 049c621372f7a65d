/** The demo user the shell's browser tests sign in as: a division-level officer (DLI) with a train list. */
export const SHELL_USER_ID = process.env.HHT_E2E_SHELL_USER ?? 'HHTDIV';
