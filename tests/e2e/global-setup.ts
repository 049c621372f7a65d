import type { TestProject } from 'vitest/node';
import { startServer, type RunningServer } from '../support/server';

/** One seeded server for every browser test file; files that need their own start one themselves. */
let server: RunningServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  // HHT_E2E_PORT: the port of this shared server, when the machine's users keep to port ranges of their own;
  // HHT_E2E_DATA_DIR: a data folder seeded before (npm run seed), kept, so a busy machine need not seed again.
  const env: Record<string, string> = {};
  if (process.env.HHT_E2E_PORT) env.PORT = process.env.HHT_E2E_PORT;
  if (process.env.HHT_E2E_DATA_DIR) env.HHT_DATA_DIR = process.env.HHT_E2E_DATA_DIR;
  server = await startServer(env);
  project.provide('baseUrl', server.url);
}

export async function teardown(): Promise<void> {
  await server?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}
