import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import imports from './scripts/lint/import-rules.mjs';

/**
 * The one-way imports of the architecture (most specific folder wins; a folder may always import itself).
 * `allow`: the only other folders it may import; `deny`: folders it may not import.
 */
const LAYERS = [
  { from: 'src/shared', allow: [], why: 'shared code is pure and used by both sides' },
  { from: 'src/client', allow: ['src/shared', 'themes'], why: 'the browser bundle never reaches into the server' },
  { from: 'src/server', allow: ['src/shared'], why: 'the server never imports the client' },
  {
    from: 'src/server/db',
    allow: ['src/shared'],
    why: 'the database layer (drivers, migrations, partitions, replicas, rollup upkeep) sits below every domain folder',
  },
  {
    from: 'src/server/hht',
    allow: ['src/server', 'src/shared'],
    deny: ['src/server/demo', 'src/server/routes', 'src/server/process'],
    why: 'terminal sync sits below the demo world that feeds it and the routes that serve it',
  },
  {
    from: 'src/server/demo',
    allow: ['src/server', 'src/shared'],
    deny: ['src/server/routes', 'src/server/process'],
    why: 'the demo world is used by startup and the seed command, never the other way round',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', '.tmp/**'] }, // .tmp: test databases and generated validator modules
  { files: ['scripts/**/*.mjs'], languageOptions: { globals: globals.node } },
  {
    files: ['{src,tests,scripts}/**/*.{ts,tsx,mjs}'],
    plugins: { imports },
    rules: {
      'imports/no-cycle': ['error', { folders: ['src', 'tests', 'scripts'] }],
      'imports/layers': ['error', LAYERS],
    },
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
);
