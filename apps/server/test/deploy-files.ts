import fs from 'node:fs';
import path from 'node:path';

/** The repository's root, where the Dockerfile, the compose file and deploy/ live. */
export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

export interface Instruction {
  /** Upper-case keyword: FROM, RUN, COPY, ... */
  keyword: string;
  /** Flags such as --from=build, in order. */
  flags: string[];
  /** The arguments: a JSON array's items, or the words of the shell form. */
  args: string[];
  /** The text after the keyword and flags, continuation lines joined. */
  text: string;
}

export interface Stage {
  image: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** Reads a Dockerfile into its stages, resolving `ARG`s given before the first FROM. */
export function parseDockerfile(source: string): { args: Record<string, string>; stages: Stage[] } {
  const lines = source.split('\n');
  const logical: string[] = [];
  let current = '';
  for (const line of lines) {
    // Docker drops comment lines, even between continued lines.
    if (/^\s*#/.test(line)) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    current += line;
    if (current.trim() !== '') logical.push(current.trim());
    current = '';
  }
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, keyword = '', rest = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const flags: string[] = [];
    let text = rest;
    for (let flag = /^(--\S+)\s+/.exec(text); flag; flag = /^(--\S+)\s+/.exec(text)) {
      flags.push(flag[1] as string);
      text = text.slice(flag[0].length);
    }
    text = text.replace(/\s+/g, ' ').trim();
    const words = text.startsWith('[') ? (JSON.parse(text) as string[]) : text.split(' ');
    const instruction = { keyword: keyword.toUpperCase(), flags, args: words, text };
    if (instruction.keyword === 'ARG' && stages.length === 0) {
      const [name, value = ''] = text.split('=');
      args[name as string] = value;
    } else if (instruction.keyword === 'FROM') {
      const image = (words[0] as string).replace(/\$\{(\w+)\}/g, (_, n: string) => args[n] ?? '');
      const as = words.findIndex((w) => w.toUpperCase() === 'AS');
      stages.push({ image, name: as >= 0 ? words[as + 1] : undefined, instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`${keyword} before FROM`);
      stage.instructions.push(instruction);
    }
  }
  return { args, stages };
}

/** ENV instructions of a stage, `KEY=value` pairs (several per line allowed). */
export function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const i of stage.instructions.filter((i) => i.keyword === 'ENV')) {
    for (const pair of i.args) {
      const [key, ...value] = pair.split('=');
      env[key as string] = value.join('=');
    }
  }
  return env;
}

export function readRoot(file: string): string {
  return fs.readFileSync(path.join(ROOT, file), 'utf8');
}

/**
 * Compose's variable interpolation with nothing set in the environment: `${X:-default}`
 * and `${X-default}` take the default, `${X}` becomes empty, `$$` is a dollar.
 */
export function interpolate(value: string, env: Record<string, string> = {}): string {
  return value.replace(
    /\$\$|\$\{(\w+)(?::?-([^}]*))?\}/g,
    (match, name: string | undefined, fallback: string | undefined) => {
      if (match === '$$') return '$';
      const set = name === undefined ? undefined : env[name];
      return set !== undefined && set !== '' ? set : (fallback ?? '');
    },
  );
}

/** `.dockerignore` as Docker applies it to the build context (no `!` exceptions used here). */
export function dockerIgnored(): (relative: string) => boolean {
  const patterns = readRoot('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  if (patterns.some((p) => p.startsWith('!'))) throw new Error('exceptions are not supported');
  const expressions = patterns.map(globToRegExp);
  return (relative) => expressions.some((e) => e.test(relative));
}

/** A Docker-style glob over a whole relative path: `**` any depth, `*` and `?` within a name. */
function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (glob.startsWith('**/', i)) {
      source += '(?:.*/)?';
      i += 2;
    } else if (glob.startsWith('**', i)) {
      source += '.*';
      i += 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
