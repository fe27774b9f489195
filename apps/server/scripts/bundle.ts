import { dirname, join } from 'node:path';
import { type BuildOptions, build } from 'esbuild';

const source = (file: string) => new URL(`../src/${file}`, import.meta.url).pathname;

const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: true,
  external: ['pg-native'],
  // Bundled CommonJS modules call require(); give them one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
};

/**
 * Bundles the server into one ESM file, and beside it the worker where computer players
 * think (bot-worker.js). Node cannot run the TypeScript workspace packages itself, nor
 * import boardgame.io's directory entry points as ESM; a bundle sidesteps both. Node's own
 * modules (node:sqlite among them) stay imports of the runtime.
 */
export async function bundleServer(outfile: string): Promise<void> {
  await Promise.all([
    build({ ...common, entryPoints: [source('main.ts')], outfile }),
    build({
      ...common,
      entryPoints: [source('bots/think-worker.ts')],
      outfile: join(dirname(outfile), 'bot-worker.js'),
    }),
  ]);
}
