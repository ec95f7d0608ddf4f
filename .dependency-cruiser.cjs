// The import graph of src/ (type-only imports included): `npm run check` fails on an import
// circle, on an arrow that runs up the layers of DESIGN.md (core -> platform/features,
// platform -> features), and on a feature folder importing another. ESLint checks the same
// layering per file; this sees whole circles.

// The search index's stages (src/core/search/<stage>/), bottom first: each may import only the
// stages before it in this list, so an upward import between stage folders fails (issue 31).
const SEARCH_STAGES = ['text', 'shared', 'store', 'lexical', 'build', 'query', 'engine', 'worker'];
const searchStageRules = SEARCH_STAGES.slice(0, -1).map((stage, i) => ({
  name: `search-${stage}-imports-down`,
  severity: 'error',
  comment: `src/core/search/${stage}/ may import only the stages below it (${SEARCH_STAGES.slice(0, i).join(', ') || 'none'}), not ${SEARCH_STAGES.slice(i + 1).join(', ')}: move what both need down to the lower stage (CONTRIBUTING.md, src/core/search/).`,
  from: { path: `^src/core/search/${stage}/` },
  to: { path: `^src/core/search/(${SEARCH_STAGES.slice(i + 1).join('|')})/` },
}));
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: break it with an interface in the lower module or by passing what is needed as an argument.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment: 'src/core may not import src/platform, src/services, src/features, the composition root or vscode.',
      from: { path: '^src/core/' },
      to: { path: ['^src/platform/', '^src/services/', '^src/features/', '^src/extension\\.ts$', '^vscode$'] },
    },
    {
      name: 'platform-is-thin',
      severity: 'error',
      comment: 'src/platform adapts VS Code; it may not import services, features or the composition root.',
      from: { path: '^src/platform/' },
      to: { path: ['^src/services/', '^src/features/', '^src/extension\\.ts$'] },
    },
    {
      name: 'services-below-features',
      severity: 'error',
      comment: 'src/services (connections and their state, shared by features) may not import a feature or the composition root.',
      from: { path: '^src/services/' },
      to: { path: ['^src/features/', '^src/extension\\.ts$'] },
    },
    {
      name: 'no-cross-feature',
      severity: 'error',
      comment: 'A feature folder (src/features/<x>/) may not import another (src/features/<y>/): move what both need to src/services (state built once in extension.ts), src/platform (a thin VS Code adapter) or src/core (pure), or let the composition root hand one to the other through a contract declared below both (CONTRIBUTING.md, issue 40).',
      from: { path: '^src/features/([^/]+)/' },
      to: { path: '^src/features/[^/]+/', pathNot: '^src/features/$1/' },
    },
    {
      name: 'feature-infrastructure-below-features',
      severity: 'error',
      comment: 'The files directly in src/features/ (deps.ts, commands.ts, restrictedMode.ts) are what every feature shares: they may not import a feature folder.',
      from: { path: '^src/features/[^/]+\\.ts$' },
      to: { path: '^src/features/[^/]+/' },
    },
    {
      name: 'mcp-server-on-core',
      severity: 'error',
      comment: 'src/mcp (the console MCP server, run by Node alone as dist/mcp.js) may import only src/core: no vscode, platform, services, features or the composition root.',
      from: { path: '^src/mcp/' },
      to: { path: ['^src/platform/', '^src/services/', '^src/features/', '^src/webview/', '^src/extension\\.ts$', '^vscode$'] },
    },
    {
      name: 'mcp-server-apart',
      severity: 'error',
      comment: 'src/mcp is its own bundle (dist/mcp.js), started as a child process: the extension never imports it (what both need lives in src/core).',
      from: { pathNot: '^src/mcp/' },
      to: { path: '^src/mcp/' },
    },
    ...searchStageRules,
    {
      name: 'search-stages-below-the-door',
      severity: 'error',
      comment: 'A search stage may not import src/core/search/index.ts (the door for the rest of the extension): import the stage that holds it.',
      from: { path: '^src/core/search/[^/]+/' },
      to: { path: '^src/core/search/index\\.ts$' },
    },
    {
      name: 'search-through-its-door',
      severity: 'error',
      comment: 'Outside src/core/search, import the search index through its door, src/core/search (index.ts), not a stage folder.',
      from: { pathNot: '^src/core/search/' },
      to: { path: '^src/core/search/[^/]+/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|out|test)/|^src/core/search/text/wasm/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
