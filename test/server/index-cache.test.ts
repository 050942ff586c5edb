// The server's one index per document version (server/index-cache.ts): the scheduler and the authoring
// handlers asking for the same version get the same index object (indexed once), a new version or other
// text gets a new one, and the cache stays bounded.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DocumentIndexes, MAX_CHARS } from '../../server/index-cache';

describe('one index per document version', () => {
  test('the same version is indexed once, whoever asks', () => {
    const cache = new DocumentIndexes();
    const text = '<r><x/></r>';
    const forScheduler = cache.get('file:///a.xml', 3, text);
    const forAuthoring = cache.get('file:///a.xml', 3, text);
    assert.equal(forAuthoring, forScheduler);
    // The index is of that text: its elements are the start tags found by searching the text.
    assert.deepEqual(
      forScheduler.elements.map((e) => e.start),
      [text.indexOf('<r'), text.indexOf('<x')],
    );
  });

  test('a new version, or the same version with other text, is indexed again', () => {
    const cache = new DocumentIndexes();
    const v1 = cache.get('file:///a.xml', 1, '<r/>');
    const v2 = cache.get('file:///a.xml', 2, '<r><x/></r>');
    assert.notEqual(v2, v1);
    assert.equal(v2.elements.length, 2);
    const reopened = cache.get('file:///a.xml', 2, '<s/>');
    assert.notEqual(reopened, v2);
    assert.equal(reopened.elements[0].local, 's');
  });

  test('documents are kept apart, and the cache is bounded', () => {
    const cache = new DocumentIndexes();
    const first = cache.get('file:///0.xml', 1, '<r/>');
    assert.notEqual(cache.get('file:///other.xml', 1, '<r/>'), first);
    for (let k = 1; k <= 100; k++) cache.get(`file:///${k}.xml`, 1, '<r/>');
    // The first document was evicted long ago: asking again indexes again.
    assert.notEqual(cache.get('file:///0.xml', 1, '<r/>'), first);
  });

  test('large texts are held up to a number of characters, least recently used out first; a forgotten one is gone', () => {
    const cache = new DocumentIndexes();
    const big = `<r>${'<x/>'.repeat(Math.ceil(MAX_CHARS / 3 / 4))}</r>`;
    assert.ok(big.length > MAX_CHARS / 3 && big.length < MAX_CHARS / 2);
    const a = cache.get('file:///a.xml', 1, big);
    cache.get('file:///b.xml', 1, big);
    assert.equal(cache.size, 2, 'two thirds of the budget');
    assert.equal(cache.get('file:///a.xml', 1, big), a, 'a still held, and now the most recent');
    cache.get('file:///c.xml', 1, big);
    // Three would pass the budget: b, the least recently used, went.
    assert.equal(cache.size, 2);
    assert.equal(cache.get('file:///a.xml', 1, big), a);
    cache.forget('file:///a.xml');
    assert.equal(cache.size, 1);
    assert.notEqual(cache.get('file:///a.xml', 1, big), a, 'forgotten: indexed again');
  });
});
