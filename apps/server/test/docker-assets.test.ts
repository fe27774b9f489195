import fs from 'node:fs';
import path from 'node:path';
import { DCLinter } from 'dclint';
import { describe, expect, it } from 'vitest';
import { parse, parseDocument } from 'yaml';
import { envSchema, loadConfig } from '../src/ops/config.ts';
import {
  dockerIgnored,
  envOf,
  interpolate,
  parseDockerfile,
  ROOT,
  readRoot,
  type Stage,
} from './deploy-files.ts';
import { tempDir } from './support.ts';

/**
 * Static checks of the Docker assets (no Docker engine runs here): the compose file, the
 * nginx configuration of its `scale` profile, the Dockerfile and the CI workflow.
 */

interface Service {
  image?: string;
  build?: string | { context: string };
  profiles?: string[];
  ports?: string[];
  environment?: Record<string, string | number | boolean>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] | string };
  volumes?: string[];
  command?: string[];
  networks?: Record<string, { ipv4_address?: string }>;
  extra_hosts?: string[];
}
interface Compose {
  name?: string;
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
  networks?: Record<string, { ipam?: { config?: { subnet?: string }[] } }>;
}

/**
 * Set by the https profile for what the server is about to read (the site's address for the
 * links it writes, issue 47), not in its schema yet.
 */
const NOT_READ_YET = ['PUBLIC_URL'];

const composeText = readRoot('docker-compose.yml');
const compose = parse(composeText, { merge: true }) as Compose;
const services = Object.entries(compose.services);
const inScale = (s: Service) => s.profiles?.includes('scale') ?? false;
const always = services.filter(([, s]) => s.profiles === undefined).map(([n]) => n);
const scaleOnly = services.filter(([, s]) => inScale(s)).map(([n]) => n);
const appServices = services.filter(([, s]) => s.build !== undefined);
const envOfService = (s: Service) =>
  Object.fromEntries(
    Object.entries(s.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]),
  );

const dockerfile = parseDockerfile(readRoot('Dockerfile'));
const [build, runtime] = dockerfile.stages as [Stage, Stage];
const runtimeOf = (keyword: string) => runtime.instructions.filter((i) => i.keyword === keyword);
const healthcheckCommand = (() => {
  const check = runtimeOf('HEALTHCHECK')[0];
  const cmd = check?.args.indexOf('CMD') ?? -1;
  return check ? (JSON.parse(check.args.slice(cmd + 1).join(' ')) as string[]) : [];
})();

describe('docker-compose.yml', () => {
  it('parses without errors or warnings', () => {
    const document = parseDocument(composeText, { merge: true });
    expect(document.errors).toEqual([]);
    expect(document.warnings).toEqual([]);
    expect(compose.name).toBe('iron-curtain');
  });

  it('is valid by the Compose specification’s schema, as a Compose tool reads it (dclint)', () => {
    // Schema errors only: dclint's style rules are opinions (key order, quoted ports).
    const schemaErrors = (file: string) =>
      new DCLinter({ rules: {}, quiet: true, debug: false, exclude: [] })
        .lintFiles([file], false)
        .flatMap((r) => r.messages)
        .filter((m) => ['invalid-yaml', 'invalid-schema', 'unknown-error'].includes(m.rule))
        .map((m) => m.message);
    expect(schemaErrors(path.join(ROOT, 'docker-compose.yml'))).toEqual([]);
    // The validator does refuse what Compose would: a condition the specification lacks.
    const dir = tempDir();
    const broken = path.join(dir, 'docker-compose.yml');
    fs.writeFileSync(broken, composeText.replace('service_healthy', 'service_ready'));
    expect(schemaErrors(broken).join('\n')).toMatch(/depends_on/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('every service has an image or a build, and a health check', () => {
    for (const [name, service] of services) {
      expect(service.image ?? service.build, name).toBeDefined();
      expect(service.healthcheck?.test, name).toBeDefined();
    }
  });

  it('`docker compose up` is one server and Postgres, on one published port', () => {
    expect(always.sort()).toEqual(['app', 'postgres']);
    const { app, postgres } = compose.services as Record<string, Service>;
    expect(app?.build).toBe('.');
    expect(app?.ports?.map((p) => interpolate(p))).toEqual(['8000:8000']);
    expect(postgres?.image).toMatch(/^postgres:\d+/);
    expect(postgres?.ports).toBeUndefined();
    expect(postgres?.healthcheck?.test).toEqual([
      'CMD-SHELL',
      'pg_isready -U iron_curtain -d iron_curtain',
    ]);
    // Postgres keeps its data in a named volume.
    expect(postgres?.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(Object.keys(compose.volumes ?? {})).toEqual([
      'postgres-data',
      'caddy-data',
      'caddy-config',
    ]);
    expect(app?.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
  });

  it('waits only for healthy services that run in the same profiles', () => {
    for (const [name, service] of services) {
      for (const [target, { condition }] of Object.entries(service.depends_on ?? {})) {
        const dependency = compose.services[target];
        expect(dependency, `${name} -> ${target}`).toBeDefined();
        expect(condition, `${name} -> ${target}`).toBe('service_healthy');
        expect(dependency?.healthcheck, target).toBeDefined();
        // A service that always runs cannot wait for one that only runs with a profile; one
        // that runs with a profile, only for one that runs with it too (Redis serves two).
        if (dependency?.profiles) {
          expect(service.profiles, `${name} -> ${target}`).toBeDefined();
          for (const profile of service.profiles ?? []) {
            expect(dependency.profiles, `${name} -> ${target}`).toContain(profile);
          }
        }
      }
    }
  });

  it('the `scale` profile: two app replicas, Redis and nginx from official images', () => {
    expect(scaleOnly.sort()).toEqual(['app-1', 'app-2', 'proxy', 'redis']);
    const s = compose.services as Record<string, Service>;
    expect(s.redis?.image).toMatch(/^redis:\d+/);
    expect(s.redis?.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(s.proxy?.image).toMatch(/^nginx:\d+\.\d+/);
    expect(s.proxy?.ports?.map((p) => interpolate(p))).toEqual(['8080:8080']);
    expect(s.proxy?.volumes).toEqual(['./deploy/nginx.conf:/etc/nginx/nginx.conf:ro']);
    expect(s.proxy?.depends_on).toEqual({
      'app-1': { condition: 'service_healthy' },
      'app-2': { condition: 'service_healthy' },
    });
    for (const replica of ['app-1', 'app-2']) {
      const service = s[replica] as Service;
      // The same image as the single server; reachable only through the proxy.
      expect(service.build).toBe(s.app?.build);
      expect(service.image).toBe(s.app?.image);
      expect(service.ports).toBeUndefined();
      expect(envOfService(service)).toMatchObject({
        REDIS_URL: 'redis://redis:6379',
        TRUST_PROXY: 'true',
        DATABASE_URL: envOfService(s.app as Service).DATABASE_URL,
      });
      expect(service.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
    }
  });

  it('gives each replica a fixed address in the subnet, the one the proxy knows its name by', () => {
    const s = compose.services as Record<string, Service>;
    const settings: Record<string, string>[] = [{}, { SCALE_NETWORK: '10.9.8' }];
    for (const env of settings) {
      const subnet = interpolate(String(compose.networks?.default?.ipam?.config?.[0]?.subnet), env);
      const prefix = subnet.replace(/\.0\/24$/, '.');
      expect(subnet).toMatch(/^\d+\.\d+\.\d+\.0\/24$/);
      const addresses = ['app-1', 'app-2'].map((replica) =>
        interpolate(String(s[replica]?.networks?.default?.ipv4_address), env),
      );
      for (const address of addresses) expect(address.startsWith(prefix)).toBe(true);
      expect(new Set(addresses).size).toBe(2);
      const caddy = interpolate(String(s['caddy-scale']?.networks?.default?.ipv4_address), env);
      expect(s.proxy?.extra_hosts?.map((h) => interpolate(h, env))).toEqual([
        `app-1:${addresses[0]}`,
        `app-2:${addresses[1]}`,
        `caddy:${caddy}`,
      ]);
    }
  });

  it('the `https` profile: Caddy from the official image on ports 80 and 443, in front of servers that publish none', () => {
    const s = compose.services as Record<string, Service>;
    const https = services.filter(([, x]) => x.profiles?.includes('https')).map(([n]) => n);
    expect(https.sort()).toEqual([
      'app-tls',
      'app-tls-1',
      'app-tls-2',
      'caddy',
      'caddy-scale',
      'proxy-tls',
      'redis',
    ]);
    const upstreams = { caddy: 'app-tls:8000', 'caddy-scale': 'proxy-tls:8080' };
    for (const [front, upstream] of Object.entries(upstreams)) {
      const caddy = s[front] as Service;
      expect(caddy.image, front).toBe('caddy:2');
      expect(caddy.profiles, front).toEqual(['https']);
      expect(caddy.ports?.map((p) => interpolate(p))).toEqual(['80:80', '443:443', '443:443/udp']);
      // The certificates and the ACME account in a named volume (README, "Back up and restore").
      expect(caddy.volumes).toEqual([
        './deploy/Caddyfile:/etc/caddy/Caddyfile:ro',
        'caddy-data:/data',
        'caddy-config:/config',
      ]);
      expect(envOfService(caddy)).toEqual({
        SITE_ADDRESS: 'localhost',
        ACME_CA: 'https://acme-v02.api.letsencrypt.org/directory',
        UPSTREAM: upstream,
      });
      const [name] = upstream.split(':') as [string];
      expect(caddy.depends_on).toEqual({ [name]: { condition: 'service_healthy' } });
    }
    expect(s['proxy-tls']?.image).toBe(s.proxy?.image);
    expect(s['proxy-tls']?.volumes).toEqual(s.proxy?.volumes);
    expect(s['proxy-tls']?.ports).toBeUndefined();
    expect(s['proxy-tls']?.depends_on).toEqual({
      'app-tls-1': { condition: 'service_healthy' },
      'app-tls-2': { condition: 'service_healthy' },
    });
    for (const server of ['app-tls', 'app-tls-1', 'app-tls-2']) {
      const service = s[server] as Service;
      expect(service.image, server).toBe(s.app?.image);
      expect(service.ports, server).toBeUndefined();
      expect(envOfService(service), server).toMatchObject({
        TRUST_PROXY: 'true',
        SERVED_OVER_TLS: 'true',
        PUBLIC_URL: 'https://localhost',
        DATABASE_URL: envOfService(s.app as Service).DATABASE_URL,
      });
      expect(
        interpolate(String(service.environment?.PUBLIC_URL), { SITE_ADDRESS: 'games.example.org' }),
      ).toBe('https://games.example.org');
    }
    for (const replica of ['app-tls-1', 'app-tls-2']) {
      expect(envOfService(s[replica] as Service).REDIS_URL).toBe('redis://redis:6379');
      expect(s[replica]?.depends_on).toEqual(s['app-1']?.depends_on);
    }
  });

  it('behind Caddy, nginx knows its servers and Caddy by their fixed addresses', () => {
    const s = compose.services as Record<string, Service>;
    const settings: Record<string, string>[] = [{}, { SCALE_NETWORK: '10.9.8' }];
    for (const env of settings) {
      const address = (service: string) =>
        interpolate(String(s[service]?.networks?.default?.ipv4_address), env);
      const all = ['app-1', 'app-2', 'app-tls-1', 'app-tls-2', 'caddy-scale'].map(address);
      expect(new Set(all).size).toBe(all.length);
      expect(s['proxy-tls']?.extra_hosts?.map((h) => interpolate(h, env))).toEqual([
        `app-1:${address('app-tls-1')}`,
        `app-2:${address('app-tls-2')}`,
        `caddy:${address('caddy-scale')}`,
      ]);
    }
  });

  it('sets only variables the server reads, and values it accepts', () => {
    const known = [...Object.keys(envSchema.shape), ...NOT_READ_YET];
    expect(appServices.map(([n]) => n).sort()).toEqual([
      'app',
      'app-1',
      'app-2',
      'app-tls',
      'app-tls-1',
      'app-tls-2',
    ]);
    for (const [name, service] of appServices) {
      const env = envOfService(service);
      for (const key of Object.keys(env)) expect(known, `${name}: ${key}`).toContain(key);
      // With the image's own variables, exactly as the container sees them.
      const config = loadConfig({ ...envOf(runtime), ...env }, '/app');
      expect(config.DATABASE_URL).toBe(
        'postgres://iron_curtain:iron-curtain@postgres:5432/iron_curtain',
      );
      expect(config.HOST).toBe('0.0.0.0');
      expect(config.PORT).toBe(8000);
    }
  });

  it('the app health check is the one the image ships', () => {
    for (const [name, service] of appServices) {
      expect(service.healthcheck?.test, name).toEqual(['CMD', ...healthcheckCommand]);
    }
    const copied = runtimeOf('COPY').find((c) => c.args[0] === 'deploy/healthcheck.mjs');
    expect(copied?.args[1]).toBe('healthcheck.mjs');
    expect(healthcheckCommand).toEqual(['node', '/app/healthcheck.mjs']);
  });

  it('its Postgres password default is the same for the server and for Postgres', () => {
    const s = compose.services as Record<string, Service>;
    const password = interpolate(String(s.postgres?.environment?.POSTGRES_PASSWORD));
    expect(envOfService(s.app as Service).DATABASE_URL).toContain(`:${password}@postgres:5432/`);
    expect(
      interpolate(String(s.app?.environment?.DATABASE_URL), { POSTGRES_PASSWORD: 'chosen' }),
    ).toContain(':chosen@');
  });
});

describe('deploy/nginx.conf', () => {
  const conf = readRoot('deploy/nginx.conf').replace(/#.*$/gm, '');
  const block = (name: string) => {
    const found = new RegExp(`${name}\\s*\\{([^}]*)\\}`).exec(conf);
    if (!found?.[1]) throw new Error(`no block ${name}`);
    return found[1];
  };
  const servers = (upstream: string) =>
    [...block(`upstream ${upstream}`).matchAll(/server\s+([\w.-]+):(\d+)/g)].map(
      (m) => `${m[1]}:${m[2]}`,
    );

  it('hashes game sockets on the match id and balances the lobby, over both replicas', () => {
    expect(block('upstream game_sockets')).toMatch(/hash \$arg_matchID consistent;/);
    expect(block('upstream lobby')).not.toMatch(/\bhash\b/);
    expect(block('upstream lobby')).toMatch(/least_conn;/);
    const replicas = scaleOnly.filter((n) => n.startsWith('app-')).map((n) => `${n}:8000`);
    expect(servers('game_sockets')).toEqual(replicas);
    expect(servers('lobby')).toEqual(replicas);
  });

  it('believes X-Forwarded-For from Caddy alone, one entry deep: a client cannot choose the address counted', () => {
    expect([...conf.matchAll(/set_real_ip_from\s+([^;]+);/g)].map((m) => m[1])).toEqual(['caddy']);
    expect(conf).toMatch(/^\s*real_ip_header X-Forwarded-For;$/m);
    expect(conf).not.toMatch(/real_ip_recursive\s+on/);
  });

  it('sends socket.io (with the WebSocket upgrade) to the hashed upstream, the rest to the lobby', () => {
    const sockets = block('location /socket.io/');
    expect(sockets).toMatch(/proxy_pass http:\/\/game_sockets;/);
    expect(sockets).toMatch(/proxy_set_header Upgrade \$http_upgrade;/);
    expect(sockets).toMatch(/proxy_set_header Connection \$connection_upgrade;/);
    // The server checks Origin against Host: the browser's Host must reach it unchanged.
    expect(sockets).toMatch(/proxy_set_header Host \$http_host;/);
    const rest = block('location /');
    expect(rest).toMatch(/proxy_pass http:\/\/lobby;/);
    expect(rest).toMatch(/proxy_set_header Host \$http_host;/);
    expect(conf).toMatch(/listen 8080;/);
  });

  it('looks the servers up once, never while it runs (a re-resolve drops the tries in flight)', () => {
    expect(conf).not.toMatch(/\bresolver\b/);
    for (const upstream of ['game_sockets', 'lobby']) {
      expect(block(`upstream ${upstream}`)).not.toMatch(/\bresolve\b/);
    }
  });

  it('never takes a server out for a refused connection, and passes no metrics', () => {
    for (const upstream of ['game_sockets', 'lobby']) {
      const lines = block(`upstream ${upstream}`)
        .split('\n')
        .filter((l) => /^\s*server\s/.test(l));
      expect(lines).toHaveLength(2);
      for (const line of lines) expect(line).toMatch(/\smax_fails=0[\s;]/);
    }
    expect(conf).toMatch(/location = \/metrics \{\s*return 404;\s*\}/);
  });

  it('the web client sends the match id in the handshake query under that name', () => {
    const transport = fs.readFileSync(path.join(ROOT, 'apps/web/src/match/transport.ts'), 'utf8');
    expect(transport).toMatch(/query: \{ matchID \}/);
  });
});

describe('Dockerfile', () => {
  it('builds in one stage and runs from a slim Node 26 image in another', () => {
    expect(dockerfile.stages.map((s) => s.name)).toEqual(['build', 'runtime']);
    for (const stage of dockerfile.stages) expect(stage.image).toMatch(/^node:26-[\w-]*slim$/);
  });

  it('installs from the lockfile with every workspace manifest in place, then builds', () => {
    const workspaces = (JSON.parse(readRoot('package.json')) as { workspaces: string[] })
      .workspaces;
    const steps = build.instructions.map((i) => `${i.keyword} ${i.text}`);
    const install = steps.indexOf('RUN npm ci --ignore-scripts --no-audit --no-fund');
    expect(install).toBeGreaterThan(0);
    const before = steps.slice(0, install);
    expect(before).toContain('COPY package.json package-lock.json ./');
    for (const w of workspaces) expect(before).toContain(`COPY ${w}/package.json ${w}/`);
    expect(steps.slice(install + 1)).toEqual([
      'COPY . .',
      'RUN npm run build -w @iron-curtain/web && npm run build -w @iron-curtain/server',
    ]);
  });

  it('runs as a non-root user under tini, with a health check, a data volume and no dev dependencies', () => {
    const user = runtimeOf('USER')[0]?.args[0];
    expect(user).toBe('node');
    expect(runtimeOf('ENTRYPOINT')[0]?.args).toEqual(['/usr/bin/tini', '--']);
    expect(runtimeOf('RUN')[0]?.text).toContain('apt-get install -y --no-install-recommends tini');
    expect(runtimeOf('RUN')[0]?.text).toContain('chown node:node /data');
    expect(runtimeOf('VOLUME')[0]?.args).toEqual(['/data']);
    expect(envOf(runtime)).toMatchObject({ DATA_DIR: '/data', HOST: '0.0.0.0', PORT: '8000' });
    expect(runtimeOf('CMD')[0]?.args).toEqual(['node', 'apps/server/dist/main.js']);

    // No node_modules in the image: the bundle holds every module but Node's own (node:sqlite
    // among them) and pg's optional native binding, which is never installed.
    const copiedTo = runtimeOf('COPY').map((c) => c.args[1] as string);
    expect(copiedTo.filter((to) => to.includes('node_modules'))).toEqual([]);
    const bundler = readRoot('apps/server/scripts/bundle.ts');
    expect(/external: \[([^\]]*)\]/.exec(bundler)?.[1]).toBe("'pg-native'");
  });

  it('variables it sets are the server’s own (NODE_ENV aside)', () => {
    const known = [...Object.keys(envSchema.shape), 'NODE_ENV'];
    for (const key of Object.keys(envOf(runtime))) expect(known).toContain(key);
  });

  it('.dockerignore keeps installed and built files and the history out of the context', () => {
    const ignored = dockerIgnored();
    for (const p of [
      'node_modules',
      'apps/server/node_modules',
      'apps/web/dist',
      '.git',
      'apps/server/test',
      'packages/game/test',
      'deploy/test',
      'README.md',
    ]) {
      expect(ignored(p), p).toBe(true);
    }
    for (const p of ['package.json', 'apps/server/src/main.ts', 'deploy/healthcheck.mjs']) {
      expect(ignored(p), p).toBe(false);
    }
  });
});

describe('.github/workflows/ci.yml', () => {
  const workflow = parse(readRoot('.github/workflows/ci.yml')) as {
    jobs: Record<
      string,
      { services?: Record<string, { image: string }>; steps: { run?: string; uses?: string }[] }
    >;
  };

  it('runs .ci/run with Postgres and Redis, and builds the image', () => {
    const jobs = Object.values(workflow.jobs);
    const test = jobs.find((j) => j.steps.some((s) => s.run === 'bash .ci/run'));
    expect(Object.values(test?.services ?? {}).map((s) => s.image.split(':')[0])).toEqual([
      'postgres',
      'redis',
    ]);
    const image = jobs.flatMap((j) => j.steps).find((s) => s.run?.includes('docker build'));
    expect(image?.run).toMatch(/docker build .*-f Dockerfile/);
  });
});
