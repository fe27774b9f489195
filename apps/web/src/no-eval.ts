import { config } from 'zod/mini';

// The pages' Content-Security-Policy allows no eval, and zod probes for it (to compile fast
// parsers) as it builds its first object schema: the browser reports even that caught probe as
// a policy violation. main.tsx imports this module first, before any schema is built.
config({ jitless: true });
