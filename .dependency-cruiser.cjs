// The direction of imports (README.md, "Direction of imports"), checked by `npm run lint`:
// entry points -> app -> routes -> a module's routes -> service -> repository -> table, with
// src/lib (over src/config) below them all. Type-only imports count: a cycle through types is still a cycle
// the next change can turn into a runtime one.

/**
 * The floors of src/, lowest first: a folder imports its own floor and the ones below it, never
 * one above. `path` is what a floor holds; the top floor is the files directly in src/ (the
 * entry points and the wiring: app, routes, deps, schema, ...). src/widget is the browser's
 * code, beside the service rather than on a floor of it: it may use src/lib's pure rules only,
 * and of it the service reads only served.ts, the placeholder it writes its CDN_URL over.
 */
const FLOORS = [
  { name: 'config', path: '^src/config/' },
  { name: 'lib', path: '^src/lib/' },
  { name: 'db', path: '^src/db/' },
  { name: 'jobs-and-plugins', path: '^src/(jobs|plugins)/' },
  { name: 'modules', path: '^src/modules/' },
  { name: 'top', path: '^src/[^/]+\\.ts$' },
];

const floorRules = FLOORS.slice(0, -1).map((floor, index) => ({
  name: `${floor.name}-imports-no-floor-above`,
  severity: 'error',
  comment: `${floor.path} imports from its own floor and below, never from ${FLOORS.slice(index + 1)
    .map((above) => above.name)
    .join(', ')} or the browser code.`,
  from: { path: floor.path },
  to: {
    path: [...FLOORS.slice(index + 1).map((above) => above.path), '^src/widget/'],
    pathNot: '^src/widget/served\\.ts$',
  },
}));

/**
 * A module's sub-feature folders (locations/import/, finders/payload/, ...) build on the
 * module: they import its files, its files never import them. Where the module instead
 * composes its sub-features (auth's service, plugin and routes over the stores and rules of
 * sessions and the second factor; a location's table, schemas and queries over the rendering of
 * its JSON and the search and orders of its list), they are listed here and the direction is the
 * other way.
 * Either way a module and its sub-folder never import each other, which the folder-scoped cycle
 * rule below cannot see (it counts a sub-folder's files as its parent's).
 */
const SUB_FEATURES_BELOW_THEIR_MODULE = [
  'auth/sessions',
  'auth/two-factor',
  'locations/json',
  'locations/list',
  'locations/opening',
  'place-search/providers',
];
const below = `^src/modules/(${SUB_FEATURES_BELOW_THEIR_MODULE.join('|')})/`;

const composedSubFeatureRules = SUB_FEATURES_BELOW_THEIR_MODULE.map((folder) => ({
  name: 'composed-sub-features-never-import-their-module',
  severity: 'error',
  comment: `src/modules/${folder}/ never imports the files of its module, which compose it.`,
  from: { path: `^src/modules/${folder}/` },
  to: { path: `^src/modules/${folder.split('/')[0]}/[^/]+$` },
}));

/**
 * Chains of modules that go one way, lowest first: a module never imports one later in its
 * chain, sub-folders included. The folder-cycle rule alone would miss a cycle through a
 * sub-folder its module composes (tags importing locations/json while locations imports tags),
 * since it counts an import against the folder of the file imported.
 * - content: tags and sets are named things of a workspace, a location carries them, a map
 *   collects locations and sets, a finder shows a map and locations;
 * - accounts: auth writes users and audit entries, and builds on their tables.
 */
const MODULE_CHAINS = [
  [['tags', 'sets'], ['locations'], ['maps'], ['finders']],
  [['users', 'audit'], ['auth']],
];

const chainRules = MODULE_CHAINS.flatMap((chain) =>
  chain.slice(0, -1).map((modules, index) => {
    const later = chain.slice(index + 1).flat();
    return {
      name: 'module-chains-go-one-way',
      severity: 'error',
      comment: `${modules.join(', ')} never import ${later.join(', ')}.`,
      from: { path: `^src/modules/(${modules.join('|')})/` },
      to: { path: `^src/modules/(${later.join('|')})/` },
    };
  }),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...floorRules,
    {
      name: 'browser-code-uses-only-lib',
      severity: 'error',
      comment: 'src/widget runs in the browser: of the service it may import src/lib only.',
      from: { path: '^src/widget/' },
      to: { path: '^src/', pathNot: '^src/(widget|lib)/' },
    },
    {
      name: 'dashboard-is-a-client',
      severity: 'error',
      comment:
        'src/dashboard is a client of the API: it knows the service through the types generated from /openapi.json; of the code it uses only the pure rules in src/lib it applies as the service does, and the widget’s reading of finder settings (what the editor saves is what the widget shows).',
      from: { path: '^src/dashboard/' },
      to: { path: '^src/', pathNot: ['^src/(dashboard|lib)/', '^src/widget/(settings|types)\\.ts$'] },
    },
    {
      name: 'service-never-imports-the-dashboard',
      severity: 'error',
      comment: 'The service serves the dashboard’s build; it never imports its code.',
      from: { path: '^src/', pathNot: '^src/dashboard/' },
      to: { path: '^src/dashboard/' },
    },
    {
      name: 'sub-features-build-on-their-module',
      severity: 'error',
      comment: "A module's own files never import its sub-feature folders (but those listed as below it).",
      from: { path: '^src/modules/([^/]+)/[^/]+$' },
      to: { path: '^src/modules/$1/[^/]+/', pathNot: below },
    },
    ...composedSubFeatureRules,
    ...chainRules,
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment:
        'Folders import each other one way: no cycle between folders (a module folder, its sub-feature folders, lib, db, ...), type-only imports included.',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'No import cycles, type-only ones included.',
      from: { path: '^(src|scripts|tests)/' },
      to: { circular: true },
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
