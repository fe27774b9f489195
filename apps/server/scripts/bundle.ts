import { build } from 'esbuild';

/**
 * Bundles the server into one ESM file. Node cannot run the TypeScript workspace packages
 * itself, nor import boardgame.io's directory entry points as ESM; a bundle sidesteps both.
 * The SQLite WASM build loads its .wasm beside its own file, so it stays a runtime import.
 */
export async function bundleServer(outfile: string): Promise<void> {
  await build({
    entryPoints: [new URL('../src/main.ts', import.meta.url).pathname],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    external: ['node-sqlite3-wasm', 'pg-native'],
    // Bundled CommonJS modules call require(); give them one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
}
