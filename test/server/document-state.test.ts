// What validation keeps per open document (server/document-state.ts): a document is indexed again only
// when its text changes, a notice whose root is momentarily gone stays a notice, and a lane lets only
// the newest run's answer through, with its timer and its run in flight stoppable. The expectations
// are the scheduler's stated rules (newest answer wins, nothing stale applied), checked on the objects
// themselves; the timers run on a fake clock.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { EngineReport } from '../../core/validation';
import { Lane, OpenDocuments, stopLanes } from '../../server/document-state';
import { FakeClock } from '../support/fake-clock';

// UBL 2.3's namespace of a contract notice, as the OASIS schema declares it.
const NOTICE =
  '<ContractNotice xmlns="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2"><x/></ContractNotice>';
const answer = (language: string) => ({ report: {} as EngineReport, language });

describe('open documents', () => {
  test('a document is indexed again only when its text changes, or when it is opened again', () => {
    const docs = new OpenDocuments(new FakeClock());
    const uri = 'file:///doc-state/a.xml';
    const s = docs.take({ uri, version: 1, text: NOTICE }, true);
    assert.equal(s.kind, 'ContractNotice');
    const first = s.index;
    // A new version with the same text (a save, an undo back to it) keeps the index.
    assert.equal(docs.take({ uri, version: 2, text: NOTICE }, false).index, first);
    assert.equal(s.version, 2);
    const edited = NOTICE.replace('<x/>', '<x/><y/>');
    assert.notEqual(docs.take({ uri, version: 3, text: edited }, false).index, first);
    assert.equal(s.index.elements.length, 3);
    assert.equal(docs.get(uri), s, 'one state per document, updated in place');
  });

  test('a notice whose root is momentarily gone stays a notice; other XML is not one', () => {
    const docs = new OpenDocuments(new FakeClock());
    const uri = 'file:///doc-state/b.xml';
    const s = docs.take({ uri, version: 1, text: NOTICE }, true);
    // Everything selected and deleted: no element at all, the syntax error must still show.
    docs.take({ uri, version: 2, text: '' }, false);
    assert.equal(s.kind, 'ContractNotice');
    // Another root is a real change of mind: no longer a notice.
    docs.take({ uri, version: 3, text: '<html/>' }, false);
    assert.equal(s.kind, undefined);
    assert.equal(docs.anyNotice(), false);
  });
});

describe('a lane', () => {
  test('an older run never overrides the answer of a newer one', () => {
    const lane = new Lane('local', new FakeClock());
    assert.equal(lane.accept(2, answer('deu')), true);
    assert.equal(lane.accept(1, answer('eng')), false);
    assert.equal(lane.result?.language, 'deu');
    lane.problem = 'it failed';
    assert.equal(lane.accept(3, answer('fra')), true);
    assert.equal(lane.problem, undefined, 'an answer clears the problem');
    assert.equal(lane.result?.language, 'fra');
    assert.deepEqual(lane.result?.findings, [], 'placed later, on the text current then');
  });

  test('a new run aborts the one in flight, whose outcome then never counts', () => {
    const lane = new Lane('cvs', new FakeClock());
    const older = lane.begin('k1', 1);
    const newer = lane.begin('k2', 2);
    assert.equal(older.signal.aborted, true);
    assert.equal(lane.inflight?.key, 'k2');
    assert.equal(lane.settle(older), false);
    assert.equal(lane.inflight?.controller, newer, 'settling an aborted run leaves the newer in flight');
    assert.equal(lane.settle(newer), true);
    assert.equal(lane.inflight, undefined);
  });

  test('arming replaces the waiting run; stopping disarms and aborts', async () => {
    const clock = new FakeClock();
    const lane = new Lane('local', clock);
    const fired: string[] = [];
    lane.arm(100, () => fired.push('first'));
    lane.arm(50, () => fired.push('second'));
    assert.equal(lane.armed, true);
    await clock.advance(200);
    assert.deepEqual(fired, ['second']);
    assert.equal(lane.armed, false);
    lane.arm(10, () => fired.push('third'));
    const run = lane.begin('k', 1);
    lane.stop();
    await clock.advance(100);
    assert.deepEqual(fired, ['second']);
    assert.equal(run.signal.aborted, true);
  });

  test('stopping a document may forget its results', () => {
    const docs = new OpenDocuments(new FakeClock());
    const s = docs.take({ uri: 'file:///doc-state/c.xml', version: 1, text: NOTICE }, true);
    s.lanes.cvs.accept(1, answer('eng'));
    stopLanes(s);
    assert.ok(s.lanes.cvs.result, 'stopped, not forgotten');
    stopLanes(s, { forget: true });
    assert.equal(s.lanes.cvs.result, undefined);
  });
});
