import { constants as zlibConstants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type LogLevel, type Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';

// The server serves dist/ on its own port, so the client uses relative URLs (/api, /socket.io).
// In `npm run dev`, Vite forwards those to a running server (IRON_CURTAIN_SERVER, default port 8000).
const server = process.env.IRON_CURTAIN_SERVER ?? 'http://localhost:8000';

/**
 * The English texts, asked for by the HTML beside the shell: main.tsx waits for them before the
 * first paint (every language falls back to them), and found by the shell's import they came one
 * round trip later. The heading font is not preloaded: drawn in the fallback until it comes
 * (font-display: swap), it would only take bandwidth from the shell.
 */
function preloadEnglishTexts(): Plugin {
  return {
    name: 'preload-english-texts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const texts = Object.values(bundle ?? {}).find(
          (f) => f.type === 'chunk' && /[\\/]src[\\/]i18n[\\/]en\.ts$/.test(f.facadeModuleId ?? ''),
        );
        if (!texts) throw new Error('the English texts are not built as a chunk of their own');
        return [
          {
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${texts.fileName}` },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

/**
 * The page build's log level, for the service worker's own build (vite-plugin-pwa runs a second
 * Vite build for it, which would otherwise print its files under `npm start`'s `--logLevel warn`).
 */
let logLevel: LogLevel | undefined;
const pageLogLevel: Plugin = {
  name: 'page-log-level',
  configResolved(config) {
    logLevel = config.logLevel;
  },
};
const workerLogLevel: Plugin = {
  name: 'worker-log-level',
  config: () => (logLevel ? { logLevel } : {}),
};

export default defineConfig({
  plugins: [
    pageLogLevel,
    react(),
    preloadEnglishTexts(),
    // A .br and a .gz copy beside each script and style, compressed once at build time as hard
    // as the formats go; the server sends them as they are (source maps stay uncompressed).
    compression({
      include: /^assets\/.+\.(js|css|svg|json)$/,
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
    }),
    // The service worker (src/worker/sw.ts) built to dist/sw.js as one classic script, with the
    // build's files to keep for offline written into it. The page registers it itself
    // (src/app/serviceWorker.ts, no inline script) and the manifest is public/manifest.webmanifest.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/worker',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        rollupFormat: 'iife',
        buildPlugins: { vite: [workerLogLevel] },
        // Every page's code (the hot seat, the tutorial and the rules work offline too), the
        // styles, fonts and icons; not the source maps, the compressed copies or Vite's manifest.
        globPatterns: [
          'index.html',
          'manifest.webmanifest',
          '*.{png,svg,ico}',
          'assets/*.{js,css,woff2,svg}',
        ],
      },
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // dist/.vite/manifest.json: the server names the current page's chunks in index.html from it.
    manifest: true,
    rolldownOptions: {
      // The compression plugin takes most of a build's time by choice (brotli at its hardest,
      // once): a notice of it at every build is noise before `npm start`'s address.
      checks: { bundlerTimings: false },
      // The wire schemas only define values: a page that reads one schema need not carry the
      // others (the lobby's and the socket's stay out of the pages that do not talk to them).
      treeshake: {
        moduleSideEffects: (id) =>
          /packages[\\/]protocol[\\/]src[\\/]/.test(id) ? false : undefined,
      },
      output: {
        // The shell (every module the entry needs) in one chunk: a cold load fetched twelve small
        // chunks over the browser's six connections, in rounds. The pages load beside it. The
        // deck checker (classic zod with the JSON Schema export only it uses, the built-in decks,
        // hashing) stays out of the shell and the pages that only read a deck: rolldown merged it
        // with zod's core, which the wire schemas need.
        codeSplitting: {
          groups: [
            {
              name: 'deck',
              includeDependenciesRecursively: false,
              test: /packages[\\/]game[\\/]src[\\/]deck[\\/](schema|effects|built-in|reconstructed)|node_modules[\\/](zod[\\/]v4[\\/](classic|locales)|@noble[\\/]hashes)[\\/]|node_modules[\\/]zod[\\/]v4[\\/]core[\\/](to-json-schema|json-schema-processors)\.js$/,
            },
            {
              name: 'shell',
              tags: ['$initial'],
              includeDependenciesRecursively: false,
            },
            // A live match's page in three chunks where it took fourteen, which the phone's first
            // paint of the table waited on over six connections: what the home page shares with it
            // (zod's core and mini, the game's types and words, the lobby's schemas, the clocks),
            // the table (also the hot seat's, the tutorial's, the replay's and the rules' cards),
            // and the live match's connection. What the table shows later (the chat, the claim,
            // the rematch, the sounds) stays out: each loads when first shown.
            {
              name: 'common',
              includeDependenciesRecursively: false,
              test: /node_modules[\\/]zod[\\/]v4[\\/](core|mini)[\\/]|packages[\\/]game[\\/]src[\\/](types|variants|deck-index)\.ts$|packages[\\/]protocol[\\/]src[\\/](lobby|plain-text)\.ts$|apps[\\/]web[\\/]src[\\/](i18n[\\/](gameWords|errorWords)\.ts|match[\\/]seatStore\.ts|features[\\/](useNow\.ts|clock[\\/]SeatClock\.tsx))$/,
            },
            {
              name: 'table',
              includeDependenciesRecursively: false,
              test: /apps[\\/]web[\\/]src[\\/](board[\\/](?!synth\.ts$)|app[\\/]motion\.ts$)|packages[\\/]game[\\/]src[\\/](board|scoring|state|rules|deck[\\/]deck)\.ts$/,
            },
            {
              name: 'live',
              includeDependenciesRecursively: false,
              test: /apps[\\/]web[\\/]src[\\/](match[\\/](?!PlayPage\.tsx$)|features[\\/]MatchExtras\.tsx$|chat[\\/]chatClient\.ts$)|packages[\\/]protocol[\\/]src[\\/](socket|chat)\.ts$|node_modules[\\/](engine\.io-client|engine\.io-parser|socket\.io-client|socket\.io-parser|@socket\.io[\\/]component-emitter|rfc6902)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': server,
      '/socket.io': { target: server, ws: true },
    },
  },
});
