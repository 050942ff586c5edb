// The notice preview's pure parts (client/preview/preview-logic.ts): what the page may send is
// validated, line ids map back to the ranges the renderer gave, the cursor finds the innermost element
// shown, a range becomes a selection clamped to the text, and the page's Content-Security-Policy allows
// no remote content and no script without the nonce. Expected values come from the XML text itself
// (offsets found with indexOf, elements located by regular expressions) and from the CSP Level 3
// specification's directive grammar, never from the code under test.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  lineAt,
  parseWebviewMessage,
  previewCsp,
  previewHtml,
  requestedLanguage,
  selectionFor,
  toWire,
} from '../../client/preview/preview-logic';
import type { RenderedLine, RenderedNotice } from '../../core/preview';
import { PROJECT_ROOT } from '../support/shared-data';

const NOTICE = readFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'notices', 'valid-cn.xml'), 'utf8');

/** [start, end) of the first element `<qname …>…</qname>` at or after `from`, found by text search. */
function elementAt(qname: string, from = 0): { start: number; end: number } {
  const start = NOTICE.indexOf(`<${qname}`, from);
  assert.ok(start >= 0, `${qname} in the fixture`);
  const close = `</${qname}>`;
  const end = NOTICE.indexOf(close, start) + close.length;
  return { start, end };
}

function rl(label: string, range: { start: number; end: number } | undefined, children: RenderedLine[] = []) {
  return { label, value: '', templateLine: 1, children, ...(range ? { range } : {}) } as RenderedLine;
}

/** A render as a renderer could give it: sections without ranges, lines on nested elements. */
function sampleRender(): RenderedNotice {
  const project = elementAt('cac:ProcurementProject');
  const title = elementAt('cbc:Name', project.start);
  const code = elementAt('cbc:ProcurementTypeCode', project.start);
  const lot = elementAt('cac:ProcurementProjectLot');
  const lotId = elementAt('cbc:ID', lot.start);
  return {
    subtype: '16',
    sdkVersion: '1.15.1',
    language: 'en',
    languages: ['de', 'en', 'fr'],
    problems: [],
    lines: [
      {
        ...rl('Procedure', undefined, [rl('Title', title), rl('Type', code), rl('Project', project)]),
        number: '1',
      },
      { ...rl('Lots', undefined, [rl('Lot', lot, [rl('Identifier', lotId)])]), number: '2' },
    ],
  };
}

describe('messages from the page', () => {
  test('the known messages pass, with their fields', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseWebviewMessage({ type: 'select', id: '0.2.1' }), { type: 'select', id: '0.2.1' });
    assert.deepEqual(parseWebviewMessage({ type: 'language', language: 'de' }), {
      type: 'language',
      language: 'de',
    });
    assert.deepEqual(parseWebviewMessage({ type: 'rendered', version: 3, lines: 10 }), {
      type: 'rendered',
      version: 3,
      lines: 10,
    });
    assert.deepEqual(parseWebviewMessage({ type: 'highlighted', id: null }), {
      type: 'highlighted',
      id: null,
    });
  });

  test('anything else is dropped, extra fields are not carried', () => {
    for (const m of [
      null,
      undefined,
      42,
      'select',
      [],
      { type: 'eval', code: 'x' },
      { type: 'select' },
      { type: 'select', id: 7 },
      { type: 'select', id: '../etc' },
      { type: 'select', id: '0.a' },
      { type: 'language', language: 'de; rm -rf' },
      { type: 'language', language: 'DE' },
      { type: 'rendered', version: '3', lines: 1 },
      { type: 'rendered', version: 3, lines: -1 },
      { type: 'rendered', version: 1.5, lines: 1 },
      { type: 'highlighted', id: {} },
    ])
      assert.equal(parseWebviewMessage(m), undefined, JSON.stringify(m));
    assert.deepEqual(parseWebviewMessage({ type: 'select', id: '1', extra: '<script>' }), {
      type: 'select',
      id: '1',
    });
  });
});

describe('line ids and ranges', () => {
  test('every line gets an id by its place in the tree; the ranges stay with the panel', () => {
    const doc = sampleRender();
    const { notice, ranges } = toWire(doc);
    assert.deepEqual(
      notice.lines.map((l) => [l.id, l.children.map((c) => c.id)]),
      [
        ['0', ['0.0', '0.1', '0.2']],
        ['1', ['1.0']],
      ],
    );
    assert.equal(notice.lines[1]?.children[0]?.children[0]?.id, '1.0.0');
    // The page gets no offsets at all.
    assert.doesNotMatch(JSON.stringify(notice), /"(range|start|end)"/);
    // Sections have no range: not linked; the others map back to what the renderer gave.
    assert.equal(notice.lines[0]?.linked, false);
    assert.equal(notice.lines[0]?.children[0]?.linked, true);
    assert.deepEqual(ranges.get('0.0'), doc.lines[0]?.children[0]?.range);
    assert.deepEqual(ranges.get('1.0.0'), doc.lines[1]?.children[0]?.children[0]?.range);
    assert.equal(ranges.has('0'), false);
  });

  test('a malformed range from a renderer is not kept', () => {
    const doc = sampleRender();
    doc.lines.push(
      rl('bad', { start: 10, end: 5 }),
      rl('neg', { start: -1, end: 5 }),
      rl('nan', { start: Number.NaN, end: 5 }),
    );
    const { ranges, notice } = toWire(doc);
    assert.equal(ranges.has('2'), false);
    assert.equal(ranges.has('3'), false);
    assert.equal(ranges.has('4'), false);
    assert.equal(notice.lines[2]?.linked, false);
  });

  test('the cursor finds the innermost element shown', () => {
    const { ranges } = toWire(sampleRender());
    const project = elementAt('cac:ProcurementProject');
    const name = elementAt('cbc:Name', project.start);
    const lot = elementAt('cac:ProcurementProjectLot');
    const lotId = elementAt('cbc:ID', lot.start);
    // Inside the title's text: the title's line, not the project's that holds it.
    assert.equal(lineAt(ranges, NOTICE.indexOf('>', name.start) + 2), '0.0');
    // On the project's start tag, outside any shown child: the project's line.
    assert.equal(lineAt(ranges, project.start + 3), '0.2');
    // Inside the lot's identifier, inside the lot.
    assert.equal(lineAt(ranges, lotId.start + 1), '1.0.0');
    // At the end of an element (just after its end tag) it still counts as in it.
    assert.equal(lineAt(ranges, lotId.end), '1.0.0');
    // Before the first shown element: nothing.
    assert.equal(lineAt(ranges, 0), undefined);
  });

  test('on equal ranges the deeper line wins', () => {
    const r = { start: 100, end: 200 };
    const { ranges } = toWire({ ...sampleRender(), lines: [rl('outer', r, [rl('inner', r)])] });
    assert.equal(lineAt(ranges, 150), '0.0');
  });

  test('a range becomes a selection inside the text', () => {
    assert.deepEqual(selectionFor({ start: 5, end: 9 }, 100), { start: 5, end: 9 });
    assert.deepEqual(selectionFor({ start: 90, end: 130 }, 100), { start: 90, end: 100 });
    assert.equal(selectionFor({ start: 120, end: 130 }, 100), undefined);
    assert.equal(selectionFor(undefined, 100), undefined);
    assert.equal(selectionFor({ start: 9, end: 5 }, 100), undefined);
  });
});

describe('language', () => {
  test('the picker, then the setting, then the notice (none asked)', () => {
    assert.equal(requestedLanguage('de', 'fr', ['de', 'en', 'fr']), 'de');
    assert.equal(requestedLanguage(undefined, 'fr', ['de', 'en', 'fr']), 'fr');
    assert.equal(requestedLanguage(undefined, '', ['de', 'en']), undefined);
    // Before the first render the languages are unknown: the choice is asked as is.
    assert.equal(requestedLanguage(undefined, 'fr', undefined), 'fr');
    // A language the release does not translate is not asked for.
    assert.equal(requestedLanguage('ga', 'fr', ['de', 'en']), undefined);
    assert.equal(requestedLanguage('ga', 'de', ['de', 'en']), 'de');
  });
});

/** Directives of a serialized policy (CSP Level 3, section 2.2.1): `;`-separated, name then values. */
function directives(policy: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), values);
  }
  return out;
}

describe('Content-Security-Policy', () => {
  const source = 'https://file+.vscode-resource.vscode-cdn.net';
  const nonce = 'r4nd0mN0nce+/=';
  const d = directives(previewCsp(source, nonce));

  test('nothing by default; scripts only with the nonce', () => {
    assert.deepEqual(d.get('default-src'), ["'none'"]);
    assert.deepEqual(d.get('script-src'), [`'nonce-${nonce}'`]);
  });

  test('no inline code, no eval, no remote origin anywhere', () => {
    for (const [name, values] of d) {
      for (const v of values) {
        assert.ok(!/unsafe-|\*|^https?:$|^data:$|^blob:$/.test(v), `${name} ${v}`);
        if (/^https?:\/\//.test(v)) assert.equal(v, source, `${name} allows only the extension's files`);
      }
    }
    // Fetches, frames, images and media fall back to default-src 'none'.
    for (const n of ['connect-src', 'img-src', 'frame-src', 'media-src', 'object-src', 'worker-src'])
      assert.equal(d.has(n), false, n);
    assert.deepEqual(d.get('base-uri'), ["'none'"]);
    assert.deepEqual(d.get('form-action'), ["'none'"]);
  });

  test('the page carries that policy and a nonce on its one script', () => {
    const html = previewHtml({
      cspSource: source,
      nonce,
      scriptUri: `${source}/dist/preview/preview.js`,
      styleUri: `${source}/dist/preview/preview.css`,
      title: 'Preview <notice>.xml',
    });
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
    assert.ok(meta, 'a CSP meta element');
    const decoded = (meta[1] as string).replace(/&#(\d+);/g, (_, n: string) =>
      String.fromCharCode(Number(n)),
    );
    assert.equal(decoded, previewCsp(source, nonce));
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.match(scripts[0]?.[1] ?? '', new RegExp(`nonce="${nonce.replace(/[+/=]/g, '\\$&')}"`));
    assert.equal(scripts[0]?.[2], '', 'no inline script body');
    assert.doesNotMatch(html, /\son[a-z]+=/i, 'no inline event handler');
    assert.match(html, /<title>Preview &#60;notice&#62;\.xml<\/title>/);
  });

  test("the page's script never writes markup from data", () => {
    // Code only: the comments may name what the code must not do.
    const src = readFileSync(join(PROJECT_ROOT, 'media', 'preview', 'preview.ts'), 'utf8').replace(
      /^\s*\/\/.*$/gm,
      '',
    );
    assert.match(src, /textContent/);
    assert.doesNotMatch(src, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
  });
});
