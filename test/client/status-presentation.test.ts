// The status item's words, for every state and environment: the environment is named (production in
// capitals), the accessible label is plain words (the `&nbsp;` a MarkdownString tooltip put there is
// gone), and a notice that is not well-formed says so.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { presentStatus } from '../../client/status-presentation';
import type { EnvironmentName } from '../../core/http/environments';
import type { ValidationState, ValidationStatusParams } from '../../core/protocol/protocol';
import { preflightStatus } from '../../server/status-wording';

const STATES: ValidationState[] = [
  'idle',
  'validating',
  'validated',
  'needsKey',
  'offline',
  'error',
  'malformed',
  'paused',
];
const ENVS: EnvironmentName[] = ['preview', 'production', 'sandbox', 'custom'];

function status(state: ValidationState): ValidationStatusParams {
  return {
    state,
    errors: 2,
    warnings: 1,
    infos: 0,
    validatedAt: 1_000,
    serviceUrl: 'https://cvs.example.eu',
    message:
      state === 'offline' ? 'The validation service at https://cvs.example.eu cannot be reached.' : undefined,
  };
}

test('the accessible label is plain words in every state and environment', () => {
  for (const env of ENVS) {
    for (const state of STATES) {
      const p = presentStatus(status(state), env, 10_000);
      assert.ok(p.ariaLabel.length > 10, `${env}/${state}: ${p.ariaLabel}`);
      assert.doesNotMatch(p.ariaLabel, /&nbsp;|&[a-z]+;|\$\(|\*\*|\\/, `${env}/${state}: ${p.ariaLabel}`);
      assert.doesNotMatch(p.tooltip, /&nbsp;/, `${env}/${state}: ${p.tooltip}`);
    }
  }
});

test('the text names the environment; production is marked in capitals and explained', () => {
  for (const state of STATES) {
    assert.match(presentStatus(status(state), 'sandbox').text, /eForms \[sandbox\]/);
    assert.match(presentStatus(status(state), 'preview').text, /eForms \[preview\]/);
    const prod = presentStatus(status(state), 'production');
    assert.match(prod.text, /eForms \[PRODUCTION\]/, prod.text);
    assert.match(prod.tooltip, /PRODUCTION.*published/, prod.tooltip);
    assert.match(prod.ariaLabel, /PRODUCTION/, prod.ariaLabel);
    assert.doesNotMatch(presentStatus(status(state), 'preview').text, /PRODUCTION/);
  }
});

test('a notice that is not well-formed says so, and points at the Problems view', () => {
  const p = presentStatus(status('malformed'), 'sandbox');
  assert.match(p.text, /not well-formed/);
  assert.doesNotMatch(p.text, /on demand/);
  assert.equal(p.command, 'workbench.actions.view.problems');
});

test('validated counts and age read as the user expects', () => {
  const p = presentStatus(status('validated'), 'sandbox', 31_000);
  assert.match(p.text, /validated 30 s ago · 2 errors, 1 warning$/);
  assert.match(p.ariaLabel, /^eForms \[sandbox\]: validated 30 s ago · 2 errors, 1 warning\. Validated by/);
});

test("a failure sent as data is worded in the editor's words, not the server's sentence", () => {
  const p = presentStatus(
    {
      state: 'offline',
      errors: 0,
      warnings: 0,
      infos: 0,
      serviceUrl: 'https://cvs.example.eu',
      message: 'SERVER SENTENCE',
      failure: {
        service: 'cvs',
        kind: 'proxy',
        fields: { origin: 'https://cvs.example.eu', proxy: 'http://proxy.example:3128', status: 407 },
      },
    },
    'preview',
  );
  assert.doesNotMatch(p.tooltip, /SERVER SENTENCE/);
  assert.match(p.tooltip, /proxy http:\/\/proxy\.example:3128 refused .*http\.proxy/, p.tooltip);
  // Without the data, the server's sentence is what there is.
  const bare = presentStatus(
    { state: 'error', errors: 0, warnings: 0, infos: 0, message: 'SERVER SENTENCE' },
    'preview',
  );
  assert.match(bare.tooltip, /SERVER SENTENCE/);
});

test('a notice too large for the SDK rules reads as not checked, not as waiting to be asked', () => {
  const said = preflightStatus('local', {
    ok: false,
    reason: 'too-many-elements',
    elements: 5_000_001,
    limit: 5_000_000,
  });
  const p = presentStatus({ ...said, engine: 'local', errors: 0, warnings: 0, infos: 0 }, 'preview');
  assert.match(p.text, /eForms SDK: not checked/);
  assert.doesNotMatch(p.text, /on demand/);
  assert.match(p.tooltip, /5,000,001 elements, more than the 5,000,000 the SDK rules can check/);
});

test("rules the SDK could not check: the tooltip says the server's sentence, alone or beside the service's status", () => {
  const sentence =
    "2 rules could not be checked here: 'tomorrow' is not a date (BR-BT-00738-0053, BR-BT-01311-0156).";
  const local: ValidationStatusParams = {
    state: 'validated',
    engine: 'local',
    errors: 1,
    warnings: 0,
    infos: 0,
    local: { source: 'eForms SDK 1.15.1', sdkVersion: '1.15.1', notEvaluated: 2, notEvaluatedText: sentence },
  };
  const alone = presentStatus(local, 'preview');
  assert.ok(alone.tooltip.includes(`eForms SDK 1.15.1. ${sentence} Click`), alone.tooltip);
  // Beside the service's status (engine "both", no key yet): the SDK's line carries it.
  const both = presentStatus({ state: 'needsKey', errors: 0, warnings: 0, infos: 0 }, 'preview', Date.now(), {
    ...local,
    engine: undefined,
  });
  assert.ok(both.tooltip.includes(sentence), both.tooltip);
  // An older server that sends the count only: the count, and where to read more.
  const bare = presentStatus(
    { ...local, local: { source: 'eForms SDK 1.15.1', sdkVersion: '1.15.1', notEvaluated: 2 } },
    'preview',
  );
  assert.match(bare.tooltip, /2 rules could not be checked here: see the log\./);
  // None: nothing said.
  const none = presentStatus(
    { ...local, local: { ...local.local, notEvaluated: 0 } } as ValidationStatusParams,
    'preview',
  );
  assert.doesNotMatch(none.tooltip, /could not be checked/);
});
