import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The server serves dist/ on its own port, so the client uses relative URLs (/api, /socket.io).
// In `npm run dev`, Vite forwards those to a running server (IRON_CURTAIN_SERVER, default port 8000).
const server = process.env.IRON_CURTAIN_SERVER ?? 'http://localhost:8000';

export default defineConfig({
  plugins: [react()],
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
