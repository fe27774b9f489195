// The pages' Content-Security-Policy allows no eval, and zod probes for it (to compile fast
// parsers) as it builds its first object schema: the browser reports even that caught probe as
// a policy violation. main.tsx imports this module first, before any schema is built. zod keeps
// its settings on this global (shared by every copy of zod on a page, created by the first) and
// z.config() writes there too; setting it directly keeps zod's core out of the shell, which would
// otherwise carry it only for this line.
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
zodGlobal.__zod_globalConfig ??= {};
zodGlobal.__zod_globalConfig.jitless = true;
