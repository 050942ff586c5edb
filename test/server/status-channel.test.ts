// What validation tells the editor and the log, and how often (server/status-channel.ts): an identical
// status is sent once, the CVS's and the SDK rules' statuses are deduplicated apart, a refusal is logged
// once per reason and document until refusals are forgotten, and once the service's accepted range is
// known each status carries where the notice's SDK stands. The lifecycle's expected value is worked out
// by hand from the range and the date below, not by the code under test.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { indexXml } from '../../core/notice';
import type { ValidationStatusParams } from '../../core/protocol';
import type { SdkVersionRange } from '../../core/services';
import { StatusChannel } from '../../server/status-channel';

const URI = 'file:///channel/a.xml';
const zero = { errors: 0, warnings: 0, infos: 0 };

function channel(range?: SdkVersionRange) {
  const sent: ValidationStatusParams[] = [];
  const logged: string[] = [];
  // A contract notice that declares SDK 1.7 (cbc:CustomizationID eforms-sdk-1.7).
  const index = indexXml(
    '<ContractNotice xmlns="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:CustomizationID>eforms-sdk-1.7</cbc:CustomizationID></ContractNotice>',
  );
  const c = new StatusChannel(
    { status: (s) => sent.push(s), log: (m) => logged.push(m) },
    (uri) => (uri === URI ? { index, range } : undefined),
    () => '2026-11-24',
  );
  return { c, sent, logged };
}

describe('the status channel', () => {
  test('an identical status is sent once; the two engines are deduplicated apart', () => {
    const { c, sent } = channel();
    const cvs: ValidationStatusParams = { state: 'validating', uri: URI, ...zero };
    const local: ValidationStatusParams = { ...cvs, engine: 'local' };
    c.send(cvs);
    c.send(cvs);
    c.send(local);
    c.send(cvs);
    assert.deepEqual(sent, [cvs, local]);
    c.send({ ...cvs, state: 'validated' });
    c.send(cvs);
    assert.equal(sent.length, 4, 'the same status again after another one is news');
  });

  test('a refusal is logged once per reason and document, until refusals are forgotten', () => {
    const { c, sent, logged } = channel();
    const refusal: ValidationStatusParams = { state: 'needsKey', uri: URI, ...zero, message: 'No key.' };
    c.refused('cvs', URI, refusal);
    c.refused('cvs', URI, refusal);
    assert.equal(logged.length, 1);
    assert.match(logged[0], /validation service.*channel\/a\.xml.*No key\./);
    assert.equal(sent.length, 1);
    c.forgetRefusals();
    c.refused('cvs', URI, refusal);
    assert.equal(logged.length, 2);
    c.refused('local', URI, { ...refusal, engine: 'local' });
    assert.match(logged[2], /SDK rules/);
  });

  test("once the service's range is known, each status says where the notice's SDK stands", () => {
    const { c, sent } = channel({ min: '1.10.0', max: '1.15.1' });
    c.send({ state: 'validated', uri: URI, ...zero });
    const l = sent[0].sdkLifecycle;
    // 1.7 is below 1.10.0..1.15.1: not accepted today.
    assert.equal(l?.declared, '1.7');
    assert.equal(l?.acceptedToday, false);
    assert.equal(l?.place, 'below');
    const { c: unknown, sent: plain } = channel();
    unknown.send({ state: 'validated', uri: URI, ...zero });
    assert.equal(plain[0].sdkLifecycle, undefined, 'no range known: nothing invented');
  });
});
