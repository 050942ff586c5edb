// The SDK lifecycle from a version-range answer: the min/max form TED documents (the CVS spec shows no
// shape, see /work/shared/specs/notice-validation-api.md section 9: "Supported SDK version values: not
// shown") and the dated form read when an answer carries it. Expectations are worked out by hand from
// the answers written here, never taken from the code; the quick fix is checked by applying its edit.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeActions, SDK_NOT_ACCEPTED } from '../../core/authoring/code-actions';
import { indexXml } from '../../core/notice';
import { describeLifecycle, sdkLifecycle, versionRangeFinding } from '../../core/services/sdk-lifecycle';
import { parseVersionRange } from '../../core/services/version-range';

const NS =
  'xmlns="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"';
const notice = (id: string) =>
  `<?xml version="1.0"?>\n<ContractNotice ${NS}>\n  <cbc:UBLVersionID>2.3</cbc:UBLVersionID>\n  <cbc:CustomizationID>${id}</cbc:CustomizationID>\n</ContractNotice>\n`;

test('min/max only: every minor between them is accepted, no date is invented', () => {
  const range = parseVersionRange('{"minVersion":"eforms-sdk-1.10.0","maxVersion":"1.13.1"}');
  assert.deepEqual(range, { min: '1.10.0', max: '1.13.1' });
  if (!range) return;
  const l = sdkLifecycle('eforms-sdk-1.9', range, ['1.9.5', '1.10.5', '1.15.1'], '2026-11-24');
  assert.equal(l.acceptedToday, false);
  assert.equal(l.place, 'below');
  assert.deepEqual(
    l.accepted.map((a) => [a.version, a.onDisk]),
    [
      ['1.10', '1.10.5'],
      ['1.11', undefined],
      ['1.12', undefined],
      ['1.13', undefined],
    ],
  );
  assert.deepEqual(l.switches, []);
  assert.equal(l.until, undefined);
  // The newest accepted release on disk, not the newest accepted: its rules are at hand.
  assert.equal(l.moveTo, '1.10');
  assert.match(
    describeLifecycle(l),
    /no longer accepts eforms-sdk-1\.9.*Move the notice to eforms-sdk-1\.10\./,
  );
  const inside = sdkLifecycle('1.12', range, [], '2026-11-24');
  assert.equal(inside.acceptedToday, true);
  assert.equal(inside.moveTo, undefined);
  assert.match(
    describeLifecycle(inside),
    /accepts eforms-sdk-1\.12 for publication today \(the service gives no end date\)/,
  );
  const newer = sdkLifecycle('1.15', range, [], '2026-11-24');
  assert.equal(newer.place, 'above');
  assert.equal(newer.moveTo, '1.13');
  assert.match(describeLifecycle(newer), /does not accept eforms-sdk-1\.15 for publication yet/);
});

test('a dated answer: accepted until its last day, switch dates named from today on', () => {
  const range = parseVersionRange(
    JSON.stringify({
      minVersion: '1.9.0',
      maxVersion: '1.12.0',
      versions: [
        { version: '1.9', validFrom: '2023-09-01', validTo: '2026-12-31' },
        { version: '1.10', validFrom: '2024-01-15' },
        { version: '1.11', validFrom: '2024-06-01' },
        { version: '1.12', validFrom: '2027-01-01' },
        { version: 'nonsense', validFrom: '2024-01-01' },
        { version: '1.8', validFrom: '2025-01-01', validTo: '2024-01-01' },
      ],
    }),
  );
  assert.ok(range?.windows);
  // The malformed items are dropped: a version that is not one, a period that ends before it starts.
  assert.deepEqual(
    range.windows.map((w) => w.version),
    ['1.9', '1.10', '1.11', '1.12'],
  );
  const l = sdkLifecycle('eforms-sdk-1.9', range, ['1.9.5'], '2026-11-24');
  assert.equal(l.acceptedToday, true);
  assert.equal(l.until, '2026-12-31');
  assert.match(describeLifecycle(l), /until 2026-12-31/);
  // 1.12 is inside min/max but its own period has not begun: not accepted today.
  assert.deepEqual(
    l.accepted.map((a) => a.version),
    ['1.9', '1.10', '1.11'],
  );
  assert.deepEqual(l.switches, [
    { date: '2026-12-31', version: '1.9', change: 'withdrawn' },
    { date: '2027-01-01', version: '1.12', change: 'accepted' },
  ]);
  // 1.12's period begins after today: refused until then, and said so.
  const early = sdkLifecycle('1.12', range, [], '2026-11-24');
  assert.equal(early.acceptedToday, false);
  assert.equal(early.from, '2027-01-01');
  assert.match(describeLifecycle(early), /accepts eforms-sdk-1\.12 for publication only from 2027-01-01\./);
  // The day after its last day, 1.9 is refused, and the notice is told to move.
  const later = sdkLifecycle('1.9', range, ['1.9.5', '1.11.2'], '2027-01-01');
  assert.equal(later.acceptedToday, false);
  assert.equal(later.moveTo, '1.11');
  assert.deepEqual(
    later.accepted.map((a) => a.version),
    ['1.10', '1.11', '1.12'],
  );
});

test('the warning on cbc:CustomizationID and its quick fix move the notice to an accepted version', () => {
  const range = { min: '1.10.0', max: '1.15.1' };
  const text = notice('eforms-sdk-1.7#extended#urn:x');
  const index = indexXml(text);
  const f = versionRangeFinding(index, range, { today: '2026-11-24', onDisk: ['1.7.5', '1.15.1'] });
  assert.ok(f);
  assert.equal(f.id, SDK_NOT_ACCEPTED);
  assert.equal(f.moveTo, '1.15');
  // Placed on the element's content, on line 3 of the notice.
  assert.equal(f.range.start.line, 3);
  assert.equal(
    text.split('\n')[3]?.slice(f.range.start.character, f.range.end.character),
    'eforms-sdk-1.7#extended#urn:x',
  );
  const diag = { range: f.range, code: f.id, message: f.message, data: { moveTo: f.moveTo } };
  const actions = codeActions(
    { index, sdk: undefined, language: 'en', today: '2026-11-24' },
    [diag],
    [diag],
    f.range,
  );
  const move = actions.find((a) => a.title.includes('eforms-sdk-1.15'));
  assert.ok(move, JSON.stringify(actions));
  assert.equal(move.edits.length, 1);
  const e = move.edits[0];
  assert.ok(e);
  const lines = text.split('\n');
  const line = lines[e.range.start.line] ?? '';
  lines[e.range.start.line] =
    line.slice(0, e.range.start.character) + e.newText + line.slice(e.range.end.character);
  const fixed = lines.join('\n');
  assert.match(fixed, /<cbc:CustomizationID>eforms-sdk-1\.15#extended#urn:x<\/cbc:CustomizationID>/);
  // Moved, the notice draws no warning.
  assert.equal(versionRangeFinding(indexXml(fixed), range, { today: '2026-11-24' }), undefined);
  // An accepted notice draws none in the first place.
  assert.equal(versionRangeFinding(indexXml(notice('eforms-sdk-1.12')), range), undefined);
});
