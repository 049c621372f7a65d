import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { DEFAULT_PAYLOAD_KEY } from './src/shared/constants';

const apiTarget = `http://127.0.0.1:${process.env.PORT ?? '8080'}`;

// One config for the client build, the dev server and the three test projects.
export default defineConfig({
  root: 'src/client',
  publicDir: false,
  plugins: [react()],
  define: {
    // The payload key is shared by the build and the server (spec: fixed symmetric key in the client).
    __HHT_PAYLOAD_KEY__: JSON.stringify(process.env.HHT_PAYLOAD_KEY || DEFAULT_PAYLOAD_KEY),
  },
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2500,
  },
  server: {
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  test: {
    root: '.',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          // @rjsf/primereact imports 'primereact/<component>' directories, which Node's ESM loader cannot resolve: let Vite.
          server: { deps: { inline: ['@rjsf/primereact'] } },
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
