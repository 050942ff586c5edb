// The command line's words for the CVS's refusals of the key: they name what a terminal user sets
// (EFORMS_API_KEY, --env), never the editor's command, and a 401 does not only say "set it", which a
// user who has set it cannot act on.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeFailure } from '../../cli/failure-wording';
import { CvsError } from '../../core/services';

test('401: set the key, or, when it is set, why it may not count', () => {
  const s = describeFailure(new CvsError('missing-key', 'no key', false, 401));
  assert.match(s, /^the service asked for an API key \(401\): set EFORMS_API_KEY; if it is set,/);
  assert.match(s, /check the key, --env, and any proxy on the way\.$/);
  assert.doesNotMatch(s, /Set API Key/);
});

test('403: a valid key for this environment', () => {
  const s = describeFailure(new CvsError('forbidden', 'refused', false, 403));
  assert.match(s, /set EFORMS_API_KEY to a valid key for this environment \(--env\)/);
  assert.doesNotMatch(s, /Set API Key/);
});

test('an answer that is not HTTP names the URL option, not a network that cannot reach', () => {
  const s = describeFailure(
    new CvsError('network', 'x', true, undefined, { origin: 'http://127.0.0.1:9', reason: 'not-http' }),
  );
  assert.equal(
    s,
    'the validation service at http://127.0.0.1:9 sent an answer that is not valid HTTP: something else may be listening there. Check --cvs-url and --env.',
  );
});
