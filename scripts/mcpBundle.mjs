// What dist/mcp.js needs from esbuild beyond the common options, shared by scripts/build.mjs and
// the MCP server's unit tests (test/unit/mcp/helpers.ts), so the tests run the server as shipped.
import { dirname } from 'node:path';

// The MCP SDK's server validates elicitation answers with ajv by default (~130 KB minified with its
// formats); the extension already ships @cfworker/json-schema, which the SDK also supports: its
// default validator is that one in dist/mcp.js.
/** @type {import('esbuild').Plugin} */
export const mcpCfWorkerValidator = {
  name: 'mcp-cfworker-validator',
  setup(build) {
    build.onLoad({ filter: /@modelcontextprotocol[\\/]sdk[\\/]dist[\\/](cjs|esm)[\\/]validation[\\/]ajv-provider\.js$/ }, (args) => {
      const contents = /[\\/]esm[\\/]/.test(args.path)
        ? "export { CfWorkerJsonSchemaValidator as AjvJsonSchemaValidator } from './cfworker-provider.js';"
        : "module.exports = { AjvJsonSchemaValidator: require('./cfworker-provider.js').CfWorkerJsonSchemaValidator };";
      return { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

