import { constants as zlibConstants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

// The server serves dist/ on its own port, so the client uses relative URLs (/api, /socket.io).
// In `npm run dev`, Vite forwards those to a running server (IRON_CURTAIN_SERVER, default port 8000).
const server = process.env.IRON_CURTAIN_SERVER ?? 'http://localhost:8000';

export default defineConfig({
  plugins: [
    react(),
    // A .br and a .gz copy beside each script and style, compressed once at build time as hard
    // as the formats go; the server sends them as they are (source maps stay uncompressed).
    compression({
      include: /^assets\/.+\.(js|css|svg|json)$/,
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Every module the first page needs in one chunk beside the entry: a cold load of the
        // match page fetched twelve small chunks over the browser's six connections, in rounds.
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
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
