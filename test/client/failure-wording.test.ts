// The editor's wording of service failures, for all three services, from kind and fields: transport
// failures name VS Code's settings and offer the action that fixes them, "already exists" is known by
// its kind, a cancellation shows nothing, and no proxy credentials or API key can appear.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wordFailure } from '../../client/failure-wording';
import { AgrifoodError } from '../../core/agrifood/errors';
import { CvsError } from '../../core/services/cvs-client';
import { EnoticesError } from '../../core/services/enotices-client';

test('a proxy failure of any service names VS Code proxy settings, never credentials', () => {
  const fields = { origin: 'https://ted.example.eu', proxy: 'http://proxy.corp:3128', status: 407 };
  for (const err of [
    new CvsError('proxy', 'secret message user:pass@proxy', false, 407, fields),
    new EnoticesError('search', 'proxy', 'secret message user:pass@proxy', 407, undefined, undefined, fields),
    new AgrifoodError('proxy', 'secret message user:pass@proxy', 407, fields),
  ]) {
    const w = wordFailure(err, 'Loading');
    assert.match(w.message, /http\.proxy/, w.message);
    assert.match(w.message, /proxy\.corp:3128/);
    assert.doesNotMatch(w.message, /user:pass|secret message/, 'worded from fields, not the message');
    assert.deepEqual(w.actions, ['Proxy Settings', 'Show Log']);
  }
});

test('network and redirect failures offer to select the environment, for every service', () => {
  const net = { origin: 'http://127.0.0.1:8723', reason: 'refused' as const };
  for (const err of [
    new CvsError('network', 'x', true, undefined, net),
    new EnoticesError('search', 'network', 'x', undefined, undefined, undefined, net),
    new AgrifoodError('network', 'x', undefined, net),
  ]) {
    const w = wordFailure(err, 'Loading');
    assert.match(w.message, /connection refused/);
    assert.match(w.message, /sandbox running/, 'loopback: the sandbox may be down');
    assert.ok(w.actions.includes('Select Environment'));
  }
  // Something answered, not in HTTP: not "cannot reach", and no question about the sandbox.
  const garbled = { origin: 'http://127.0.0.1:8723', reason: 'not-http' as const };
  for (const err of [
    new CvsError('network', 'x', true, undefined, garbled),
    new EnoticesError('search', 'network', 'x', undefined, undefined, undefined, garbled),
    new AgrifoodError('network', 'x', undefined, garbled),
  ]) {
    const w = wordFailure(err, 'Loading');
    assert.match(w.message, /sent an answer that is not valid HTTP: something else may be listening there/);
    assert.doesNotMatch(w.message, /cannot reach|sandbox running/);
    assert.ok(w.actions.includes('Select Environment'));
  }
  const moved = new AgrifoodError('redirect', 'x', 301, {
    origin: 'https://old.example.eu',
    location: 'https://new.example.eu/api',
  });
  assert.match(wordFailure(moved, 'Loading prices').message, /moved to https:\/\/new\.example\.eu\/api/);
});

test('"already exists" is known by its kind and offers My Notices', () => {
  const err = new EnoticesError('submit', 'already-exists', 'whatever the service said', 409);
  const w = wordFailure(err, 'Submitting the notice');
  assert.match(w.message, /already has this notice id and version/);
  assert.ok(w.actions.includes('Refresh My Notices'));
});

test('key problems offer to set the key; a cancellation shows nothing', () => {
  assert.ok(
    wordFailure(new CvsError('forbidden', 'x', false, 403), 'Validating').actions.includes('Set API Key'),
  );
  assert.ok(
    wordFailure(new EnoticesError('search', 'auth', 'x', 401), 'Loading your notices').actions.includes(
      'Set API Key',
    ),
  );
  assert.deepEqual(wordFailure(new AgrifoodError('cancelled', 'x'), 'Loading').actions, []);
});

test('a timeout names the limit and the setting that raises it', () => {
  const w = wordFailure(new CvsError('timeout', 'x', true, undefined, { timeoutMs: 30000 }), 'Validating');
  assert.match(w.message, /within 30 s/);
  assert.match(w.message, /eforms\.validation\.timeoutMs/);
});

test('anything that is not a service error still reads as a failure of the action', () => {
  const w = wordFailure(new Error('boom'), 'Fetching the validation report');
  assert.equal(w.message, 'Fetching the validation report failed: boom');
});
