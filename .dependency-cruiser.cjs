// The one-way imports of the architecture, checked by `npm run lint` (docs/decisions.md, "The import check").
// Only the project's own files are in the graph; packages are not ours to order. Type-only imports, re-exports and
// import() count: a type-only circle still ties two files together for a reader.

/** A file of the project imported by a relative path (not a package, not a Node built-in). */
const own = (to) => ({ dependencyTypes: ['local'], ...to });

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No file reaches itself through its imports, however long the circle: move what the files share into a file both can import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shared-is-pure',
      severity: 'error',
      comment: 'src/shared is used by the browser and the server alike: it imports nothing of either, nor of tests or scripts.',
      from: { path: '^src/shared/' },
      to: own({ pathNot: '^src/shared/' }),
    },
    {
      name: 'client-never-imports-server',
      severity: 'error',
      comment: 'The browser bundle imports only itself, src/shared and the theme list.',
      from: { path: '^src/client/' },
      to: own({ pathNot: '^(src/(client|shared)/|themes/)' }),
    },
    {
      name: 'features-apart',
      severity: 'error',
      comment: 'A client feature imports no other feature: the app (src/client/app) joins them, as the report route gives the report page the saved views\' and the subscriptions\' buttons.',
      from: { path: '^src/client/features/([^/]+)/' },
      to: own({ path: '^src/client/features/', pathNot: '^src/client/features/$1/' }),
    },
    {
      name: 'server-never-imports-client',
      severity: 'error',
      comment: 'The server imports only itself and src/shared.',
      from: { path: '^src/server/' },
      to: own({ pathNot: '^src/(server|shared)/' }),
    },
    {
      name: 'db-below-domain',
      severity: 'error',
      comment: 'The database layer (drivers, migrations, partitions, replicas, rollup upkeep) sits below every domain folder: it imports only itself and src/shared.',
      from: { path: '^src/server/db/' },
      to: own({ pathNot: '^src/(server/db|shared)/' }),
    },
    {
      name: 'server-main-is-the-top',
      severity: 'error',
      comment: 'src/server/main.ts only starts the process: nothing imports it.',
      from: { path: '^src/' },
      to: { path: '^src/server/main\\.ts$' },
    },
    {
      name: 'routes-below-app',
      severity: 'error',
      comment: 'Routes are registered by app.ts, which the process starts: a route imports neither.',
      from: { path: '^src/server/routes/' },
      to: { path: '^src/server/(app\\.ts$|process/)' },
    },
    {
      name: 'domain-below-routes',
      severity: 'error',
      comment: 'Reports, sign-in and terminal sync are served by the routes, never the other way round.',
      from: { path: '^src/server/(reports|auth|hht)/' },
      to: { path: '^src/server/(routes/|app\\.ts$|process/)' },
    },
    {
      name: 'hht-below-demo',
      severity: 'error',
      comment: 'Terminal sync sits below the demo world that feeds it.',
      from: { path: '^src/server/hht/' },
      to: { path: '^src/server/demo/' },
    },
    {
      name: 'demo-below-startup',
      severity: 'error',
      comment: 'The demo world is used by startup and the seed command, never the other way round.',
      from: { path: '^src/server/demo/' },
      to: { path: '^src/server/(routes|process)/' },
    },
  ],
  options: {
    includeOnly: '^(src|tests|scripts|themes)/',
    exclude: { path: '(^|/)(node_modules|dist|data|coverage|\\.tmp)/' },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6', 'cjs'],
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.mts', '.js', '.jsx', '.mjs', '.cjs', '.json'] },
  },
};
