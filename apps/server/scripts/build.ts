import { bundleServer } from './bundle.ts';

await bundleServer(new URL('../dist/main.js', import.meta.url).pathname);
