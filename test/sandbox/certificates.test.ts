// NODE_EXTRA_CA_CERTS is honoured: a service whose certificate comes from a private authority (as a
// company's TLS-inspecting proxy presents) is trusted once that authority's PEM file is named there, and
// without it the failure says that the certificate is not trusted and how to add the authority. The
// certificate is made here with the openssl command; without it the test skips, saying so.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { PROJECT_ROOT } from '../support/shared-data';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
let dir: string;
let server: Server | undefined;
let base: string;

before(async () => {
  if (!hasOpenssl) return;
  dir = mkdtempSync(join(tmpdir(), 'eforms-ca-'));
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'ca.pem'),
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { encoding: 'utf8' },
  );
  assert.equal(made.status, 0, made.stderr);
  server = createServer(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'ca.pem')) },
    (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"minVersion":"1.10.0","maxVersion":"1.13.1"}');
    },
  );
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  base = `https://localhost:${(server.address() as AddressInfo).port}/cvs`;
});
after(async () => {
  if (server) await new Promise<void>((r) => server?.close(() => r()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function versions(env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [join(PROJECT_ROOT, 'dist', 'cli.js'), 'versions', '--cvs-url', base], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => {
      out += d;
    });
    p.stderr.on('data', (d) => {
      err += d;
    });
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

test('a private certificate authority: trusted through NODE_EXTRA_CA_CERTS, explained without it', {
  skip: hasOpenssl ? false : 'the openssl command is not installed',
}, async () => {
  const trusted = await versions({ NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem') });
  assert.equal(trusted.code, 0, trusted.err);
  assert.match(trusted.out, /accepts eForms SDK 1\.10\.0 to 1\.13\.1/);
  const untrusted = await versions({});
  assert.equal(untrusted.code, 2);
  assert.match(untrusted.err, /certificate is not trusted; NODE_EXTRA_CA_CERTS can add your CA/);
});
