// The compose files at the repository root, read as the Compose specification reads them: there is
// no Docker engine in the tests, so what `docker compose up` would start is checked from the files.
// The rules used (compose-spec, "Using profiles with Compose"): a service without `profiles` is
// always enabled, so `docker compose up` starts every such service of compose.yaml; `depends_on`
// and named volumes must name services and volumes the file declares; `build` is a directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

interface Service {
  profiles?: string[];
  build?: string;
  image?: string;
  ports?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, unknown> | string[];
}
interface ComposeFile {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

const load = (file: string) => parse(readFileSync(ROOT + file, 'utf8'), { merge: true }) as ComposeFile;

/** What a file must hold whatever it runs: no profiles, builds from the repository, references that resolve. */
function checkWellFormed(file: string, c: ComposeFile): void {
  for (const [name, s] of Object.entries(c.services)) {
    assert.equal(s.profiles, undefined, `${file}: ${name} has no profile, so \`up\` starts it`);
    assert.ok(s.build || s.image, `${file}: ${name} builds or names an image`);
    if (s.build) assert.ok(existsSync(`${ROOT}${s.build}/Dockerfile`), `${file}: ${name} builds from a Dockerfile`);
    const deps = Array.isArray(s.depends_on) ? s.depends_on : Object.keys(s.depends_on ?? {});
    for (const d of deps) assert.ok(d in c.services, `${file}: ${name} depends on ${d}, a service of the file`);
    for (const v of s.volumes ?? []) {
      const source = v.split(':')[0]!;
      if (source.startsWith('.')) assert.ok(existsSync(ROOT + source), `${file}: ${name} mounts ${source}, which exists`);
      else assert.ok(source in (c.volumes ?? {}), `${file}: ${name} mounts the named volume ${source}, declared`);
    }
  }
}

test('`docker compose up` starts the single instance: one svc on SQLite in a volume, port 8700, no default password', () => {
  const c = load('compose.yaml');
  checkWellFormed('compose.yaml', c);
  assert.deepEqual(Object.keys(c.services), ['svc']);
  const svc = c.services.svc!;
  assert.equal(svc.build, '.');
  assert.deepEqual(svc.ports, ['8700:8700']);
  assert.match(svc.environment!.DATABASE_URL!, /^sqlite:\/data\//);
  assert.deepEqual(svc.volumes, ['svc-data:/data']);
  // `${VAR:?message}`: compose refuses to start without the operator's own credentials.
  assert.match(svc.environment!.SVC_ADMIN_PASSWORD!, /^\$\{SVC_ADMIN_PASSWORD:\?/);
});

test('compose.cluster.yaml: PostgreSQL, Redis, a migration, two instances on the same settings, nginx in front', () => {
  const c = load('compose.cluster.yaml');
  checkWellFormed('compose.cluster.yaml', c);
  assert.deepEqual(Object.keys(c.services).sort(), ['migrate', 'nginx', 'postgres', 'redis', 'svc1', 'svc2']);
  assert.deepEqual(c.services.svc1!.environment, c.services.svc2!.environment, 'both instances share one configuration');
  assert.match(c.services.svc1!.environment!.DATABASE_URL!, /^postgres:\/\//);
  assert.equal(c.services.svc1!.environment!.REDIS_URL, 'redis://redis:6379');
  assert.deepEqual(c.services.nginx!.ports, ['8080:80']);
  assert.match(c.services.postgres!.environment!.POSTGRES_PASSWORD!, /^\$\{POSTGRES_PASSWORD:\?/);
});
