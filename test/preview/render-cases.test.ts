// The renderer on hand-made variants of the SDK's cn_24_minimal example (subtype 16): multilingual text
// in the chosen language with the notice's language as fallback, an empty mandatory field flagged, an
// absent optional one left out, dates and amounts in each language's convention (the conventions
// written out here, not computed), ranges pointing at the element shown, HTML that escapes the notice's
// text and loads nothing remote, and bad input that gives problems instead of exceptions.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import {
  loadPreviewSdk,
  type PreviewSdk,
  type RenderedLine,
  renderHtml,
  renderNotice,
  renderText,
} from '../../core/preview';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const skip = skipUnless(SDK_DIR) ?? skipUnless(join(SAMPLES_DIR, 'notices'));
const TITLE =
  '<cbc:Name languageID="ENG">Provision of IT Services Related to OP IT Systems (EUR-Lex, N-Lex, Search Layer, and Others)</cbc:Name>';

function all(lines: RenderedLine[], out: RenderedLine[] = []): RenderedLine[] {
  for (const l of lines) {
    out.push(l);
    all(l.children, out);
  }
  return out;
}

describe('renderNotice: hand-made cases', { skip }, () => {
  let sdk: PreviewSdk;
  let minimal: string;
  let maximal: string;
  before(async () => {
    sdk = await loadPreviewSdk(SDK_DIR);
    minimal = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_minimal.xml'), 'utf8');
    maximal = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_maximal.xml'), 'utf8');
  });

  const titleLines = (xml: string, language: string) =>
    all(renderNotice(xml, sdk, { language }).lines).filter((l) => l.templateLine === 10);

  test('multilingual text: the chosen language where the notice has it, else the notice’s', () => {
    assert.ok(minimal.includes(TITLE));
    const xml = minimal.replace(TITLE, `${TITLE}<cbc:Name languageID="FRA">Titre en français</cbc:Name>`);
    const fr = titleLines(xml, 'fr');
    assert.equal(fr.length, 1);
    assert.equal(fr[0].label, 'Titre');
    assert.equal(fr[0].value, 'Titre en français');
    // Scroll sync points at the French element, the one shown.
    const frRange = fr[0].range;
    assert.ok(frRange);
    assert.equal(
      xml.slice(frRange.start, frRange.end),
      '<cbc:Name languageID="FRA">Titre en français</cbc:Name>',
    );
    const en = titleLines(xml, 'en');
    assert.equal(en[0].label, 'Title');
    assert.match(en[0].value, /^Provision of IT Services/);
    // No German text: the notice's language (ENG) is shown, with German labels.
    const de = titleLines(xml, 'de');
    assert.match(de[0].value, /^Provision of IT Services/);
    assert.equal(de[0].label, 'Titel');
  });

  test('an empty mandatory field is shown empty and flagged; its range is that element', () => {
    const xml = minimal.replace(TITLE, '<cbc:Name languageID="ENG"></cbc:Name>');
    const [line] = titleLines(xml, 'en');
    assert.equal(line.value, '');
    assert.equal(line.flagged, true);
    // The line is read in the procurement project's context; its range is the element it shows.
    assert.ok(line.range);
    assert.equal(xml.slice(line.range.start, line.range.end), '<cbc:Name languageID="ENG"></cbc:Name>');
    assert.ok(renderText(renderNotice(xml, sdk, { language: 'en' })).includes('Title: [missing]'));
  });

  test('an absent mandatory field (BT-05(a)-notice, the dispatch date) is shown empty and flagged', () => {
    const line = (xml: string) =>
      all(renderNotice(xml, sdk, { language: 'en' }).lines).find((l) => l.label === 'Notice dispatch date');
    const present = line(minimal);
    assert.equal(present?.value, '21/11/2019 00:00 UTC+01:00');
    assert.equal(present?.flagged, undefined);
    const absent = line(minimal.replace('<cbc:IssueDate>2019-11-21+01:00</cbc:IssueDate>', ''));
    assert.ok(absent, 'the line is left out');
    assert.equal(absent.value, '');
    assert.equal(absent.flagged, true);
    assert.equal(absent.range, undefined);
  });

  test('an absent optional field leaves its line out', () => {
    // BT-22-Procedure (internal identifier, line 14) is in the maximal notice only.
    const max = all(renderNotice(maximal, sdk, { language: 'en' }).lines).filter(
      (l) => l.templateLine === 14,
    );
    assert.equal(max.length, 1);
    assert.equal(max[0].value, '2023-P-0001');
    assert.ok(maximal.slice(max[0].range?.start, max[0].range?.end).startsWith('<cbc:ID'));
    const min = all(renderNotice(minimal, sdk, { language: 'en' }).lines).filter(
      (l) => l.templateLine === 14,
    );
    assert.equal(min.length, 0);
  });

  test('dates and amounts follow the language', () => {
    const value = (language: string, label: RegExp) =>
      all(renderNotice(maximal, sdk, { language }).lines).find((l) => label.test(l.label))?.value ?? '';
    // BT-27-Procedure is 9999999.99 EUR; BT-537-Lot (end date) 2023-05-23.
    assert.equal(value('en', /^Estimated value excluding VAT$/), '9,999,999.99 Euro');
    assert.match(value('fr', /^Valeur estimée hors TVA$/), /^9\s999\s999,99 euro$/iu);
    assert.equal(value('de', /^Geschätzter Wert ohne MwSt\.$/).replace(/\s/gu, ' '), '9.999.999,99 Euro');
    assert.equal(value('en', /^Duration end date$/), '23/05/2023');
    assert.equal(value('fr', /^Date de fin de durée$/), '23/05/2023');
    assert.equal(value('de', /^Enddatum der Laufzeit$/), '23.05.2023');
  });

  test('codes show their names in the language', () => {
    const legal = (language: string) =>
      all(renderNotice(minimal, sdk, { language }).lines).find((l) => l.templateLine === 6)?.value;
    // buyer-legal-type 'eu-ins-bod-ag' as the SDK's code_en.xml and code_fr.xml name it.
    assert.equal(legal('en'), 'EU institution, body or agency');
    assert.equal(legal('fr'), 'Institution, organe ou agence de l’UE');
  });

  test('HTML escapes the notice’s text and loads nothing remote', () => {
    const xml = minimal.replace(
      TITLE,
      '<cbc:Name languageID="ENG">&lt;script&gt;alert("x")&lt;/script&gt; &amp; <![CDATA[<img src=x onerror=alert(1)>]]></cbc:Name>',
    );
    const doc = renderNotice(xml, sdk, { language: 'en' });
    const html = renderHtml(doc);
    assert.ok(!html.includes('<script'), 'a script element came through');
    assert.ok(!html.includes('<img'), 'an img element came through');
    assert.ok(
      html.includes(
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt;',
      ),
    );
    assert.ok(!/\b(src|href)\s*=\s*["']?https?:/i.test(html), 'remote content');
    assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
    assert.match(html, /^<!DOCTYPE html>/);
    const withNonce = renderHtml(doc, { nonce: 'abc123' });
    assert.match(withNonce, /<style nonce="abc123">/);
    assert.match(withNonce, /style-src 'nonce-abc123'/);
    const fragment = renderHtml(doc, { standalone: false });
    assert.ok(!fragment.includes('<html'));
    assert.match(fragment, /data-start="\d+" data-end="\d+"/);
  });

  test('bad input gives problems, never an exception', () => {
    for (const bad of ['', 'not xml', '<a>', '<ContractNotice/>', minimal.slice(0, 3000)]) {
      const doc = renderNotice(bad, sdk, { language: 'en' });
      assert.ok(Array.isArray(doc.lines));
      if (doc.lines.length === 0) assert.ok(doc.problems.length > 0, `no problem for ${bad.slice(0, 20)}`);
    }
    const unknown = renderNotice(minimal.replace('>16</cbc:SubTypeCode>', '>99</cbc:SubTypeCode>'), sdk, {
      language: 'en',
    });
    assert.equal(unknown.lines.length, 0);
    assert.match(unknown.problems[0].message, /no view template for subtype 99/);
    const xx = renderNotice(minimal, sdk, { language: 'xx' });
    assert.equal(xx.language, 'en');
    assert.match(xx.problems[0].message, /no labels in 'xx'/);
  });

  test('the summary template renders too', () => {
    const doc = renderNotice(maximal, sdk, { language: 'en', subtype: 'summary' });
    assert.equal(doc.subtype, 'summary');
    assert.ok(doc.lines.length > 0);
  });
});
