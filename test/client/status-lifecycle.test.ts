// The status item tells where the notice's SDK stands at TED: accepted today or not, until when, what
// TED accepts and the switch dates, from the lifecycle the server sends with the status. The
// lifecycles here are written by hand as the server would send them for the answers in
// test/services/sdk-lifecycle.test.ts.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { presentStatus } from '../../client/status-presentation';
import type { ValidationStatusParams } from '../../core/protocol';

const base: ValidationStatusParams = {
  state: 'validated',
  uri: 'file:///n.xml',
  errors: 0,
  warnings: 0,
  infos: 0,
  validatedAt: 1_000,
  serviceUrl: 'https://cvs.example',
};

test('an accepted SDK with an end date: the tooltip names it and the switch dates', () => {
  const p = presentStatus(
    {
      ...base,
      sdkLifecycle: {
        declared: '1.9',
        acceptedToday: true,
        place: 'inside',
        until: '2026-12-31',
        accepted: [
          { version: '1.9', onDisk: '1.9.5', from: '2023-09-01', until: '2026-12-31' },
          { version: '1.10', from: '2024-01-15' },
        ],
        switches: [
          { date: '2026-12-31', version: '1.9', change: 'withdrawn' },
          { date: '2027-01-01', version: '1.12', change: 'accepted' },
        ],
      },
    },
    'preview',
    1_000,
  );
  assert.match(p.tooltip, /TED accepts eforms-sdk-1\.9 for publication until 2026-12-31\./);
  assert.match(
    p.tooltip,
    /TED accepts: 1\.9 \(on disk: 1\.9\.5, from 2023-09-01, until 2026-12-31\), 1\.10 \(from 2024-01-15\)\./,
  );
  assert.match(
    p.tooltip,
    /Switch dates: 2026-12-31: last day 1\.9 is accepted; 2027-01-01: 1\.12 accepted from this day\./,
  );
  assert.doesNotMatch(p.text, /not accepted/);
  assert.equal(p.background, undefined);
  assert.match(p.ariaLabel, /until 2026-12-31/);
});

test('an SDK TED no longer accepts: said in the item itself, with the version to move to', () => {
  const p = presentStatus(
    {
      ...base,
      sdkLifecycle: {
        declared: '1.7',
        acceptedToday: false,
        place: 'below',
        accepted: [{ version: '1.10' }, { version: '1.11', onDisk: '1.11.2' }],
        switches: [],
        moveTo: '1.11',
      },
    },
    'production',
    1_000,
  );
  assert.match(p.text, /eforms-sdk-1\.7 not accepted by TED/);
  assert.equal(p.background, 'warning');
  assert.match(
    p.tooltip,
    /TED no longer accepts eforms-sdk-1\.7 for publication\. Move the notice to eforms-sdk-1\.11\./,
  );
  assert.doesNotMatch(p.tooltip, /Switch dates/);
});

test('no lifecycle known yet: nothing is said about it', () => {
  const p = presentStatus(base, 'preview', 1_000);
  assert.doesNotMatch(p.tooltip, /TED accepts/);
});
