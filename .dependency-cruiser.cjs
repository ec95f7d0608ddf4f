// The import graph of src/ (type-only imports included): `npm run check` fails on an import
// circle, and on an arrow that runs up the layers of DESIGN.md (core -> platform/features,
// platform -> features). ESLint checks the same layering per file; this sees whole circles.
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
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|out|test)/|^src/core/search/text/wasm/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
