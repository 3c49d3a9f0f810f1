// The direction of imports (README.md, "Direction of imports"), checked by `npm run lint`:
// entry points -> app -> routes -> a module's routes -> service -> repository -> table, with
// src/lib as the ground floor. Type-only imports count: a cycle through types is still a cycle
// the next change can turn into a runtime one.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'No import cycles, type-only ones included.',
      from: { path: '^(src|scripts|tests)/' },
      to: { circular: true },
    },
    {
      name: 'lib-is-the-ground-floor',
      severity: 'error',
      comment: 'src/lib imports no feature module and no plugin.',
      from: { path: '^src/lib/' },
      to: { path: '^src/(modules|plugins)/' },
    },
    {
      name: 'data-layer-without-http',
      severity: 'error',
      comment:
        'Repositories and tables never load Fastify or the HTTP plugins, not even through another file.',
      from: { path: '\\.(repository|table)\\.ts$' },
      to: { path: ['^src/plugins/', '(^|/)node_modules/(fastify|@fastify|fastify-[^/]+)/'], reachable: true },
    },
    {
      name: 'services-never-import-routes',
      severity: 'error',
      comment: 'A service calls repositories and other services, never a routes file.',
      from: { path: '\\.service\\.ts$' },
      to: { path: '\\.routes\\.ts$' },
    },
    {
      name: 'no-unresolvable-imports',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts'],
    },
  },
};
