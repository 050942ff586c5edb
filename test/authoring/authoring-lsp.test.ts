// Authoring over LSP, against the real server (dist/server.js) with the official SDK 1.15.1 from
// ../shared: hover, completion, outline, definition, references, rename, quick fixes on the diagnostics
// they fix (local ones and the sandbox CVS's), and New Notice. Expected values are read from the SDK's
// files and the notices by other means (regular expressions over the raw files), never from the code
// under test. Skips, saying why, when ../shared is absent.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SDK_NAMESPACES } from '../../core/authoring/sdk-paths';
import { indexXml, textContent } from '../../core/notice';
import { resolveLocation } from '../../core/svrl/mapping';
import { applyEdits, offsetOf, type Pos, type TextEdit } from '../support/lsp-edits';
import { docUri, LspSession, lineCol } from '../support/lsp-session';
import { ruledProcedureTypesOf16 } from '../support/ruled-procedure-types';
import { type SandboxHarness, startHarness, TEST_API_KEY } from '../support/sandbox-harness';
import { copySdkRelease } from '../support/sdk-copy';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const skip = skipUnless(SDK_DIR) ?? skipUnless(SAMPLES_DIR);

/** White space and comments between two tags. */
const GAP = '(?:\\s|<!--[\\s\\S]*?-->)*';

interface CodeAction {
  title: string;
  kind?: string;
  isPreferred?: boolean;
  diagnostics?: unknown[];
  edit?: { changes?: Record<string, TextEdit[]> };
}

/** The position just inside the n-th occurrence of `needle` (plus `delta` characters). */
function posOf(text: string, needle: string, delta = 0, nth = 0): Pos {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = text.indexOf(needle, at + 1);
  assert.ok(at >= 0, `${needle} not found`);
  return lineCol(text, at + delta);
}

/** Labels of translations/<file> by regular expression: an independent reading of the SDK. */
function translationEntry(file: string, key: string): string | undefined {
  const text = readFileSync(join(SDK_DIR, 'translations', file), 'utf8');
  const m = new RegExp(`<entry key="${key.replace(/[|()]/g, (c) => `\\${c}`)}">([^<]*)</entry>`).exec(text);
  return m?.[1];
}

function gcCodes(file: string): string[] {
  const text = readFileSync(join(SDK_DIR, 'codelists', file), 'utf8');
  return [...text.matchAll(/<Value ColumnRef="code">\s*<SimpleValue>([^<]*)<\/SimpleValue>/g)].map(
    (m) => m[1] as string,
  );
}

const fields = () =>
  (
    JSON.parse(readFileSync(join(SDK_DIR, 'fields', 'fields.json'), 'utf8')) as {
      fields: Record<string, unknown>[];
    }
  ).fields;

describe('authoring over LSP', { skip }, () => {
  let s: LspSession;
  let h: SandboxHarness;
  let tmpSdk: string;
  const sample = () => readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_maximal.xml'), 'utf8');

  before(async () => {
    h = await startHarness();
    // A copy of the SDK whose codelists/ adds a small generated cpv.gc (a copy: links leading out of
    // the release are refused).
    tmpSdk = mkdtempSync(join(tmpdir(), 'eforms-sdk-'));
    copySdkRelease(SDK_DIR, tmpSdk, ['view-templates', 'schemas', 'efx-grammar']);
    writeFileSync(
      join(tmpSdk, 'codelists', 'cpv.gc'),
      `<?xml version="1.0" encoding="UTF-8"?>
<gc:CodeList xmlns:gc="http://docs.oasis-open.org/codelist/ns/genericode/1.0/">
  <SimpleCodeList>
    <Row><Value ColumnRef="code"><SimpleValue>15000000</SimpleValue></Value><Value ColumnRef="eng_label"><SimpleValue>Food, beverages, tobacco and related products</SimpleValue></Value><Value ColumnRef="fra_label"><SimpleValue>Aliments, boissons, tabac et produits connexes</SimpleValue></Value></Row>
    <Row><Value ColumnRef="code"><SimpleValue>72000000</SimpleValue></Value><Value ColumnRef="eng_label"><SimpleValue>IT services: consulting, software development, Internet and support</SimpleValue></Value></Row>
  </SimpleCodeList>
</gc:CodeList>
`,
    );
    s = await LspSession.start({
      apiKey: TEST_API_KEY,
      settings: {
        environment: 'sandbox',
        sandboxUrl: h.origin,
        validation: { debounceMs: 20, timeoutMs: 30000, language: 'en', mode: 'static' },
        sdk: { path: tmpSdk },
      },
    });
  });
  after(async () => {
    await s?.stop();
    await h?.close();
    if (tmpSdk) rmSync(tmpSdk, { recursive: true, force: true });
  });

  const hover = async (uri: string, p: Pos) =>
    (await s.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: p })) as {
      contents: { value: string };
    } | null;
  const complete = async (uri: string, p: Pos) =>
    (await s.connection.sendRequest('textDocument/completion', { textDocument: { uri }, position: p })) as {
      items: {
        label: string;
        detail?: string;
        sortText?: string;
        textEdit: TextEdit;
        insertTextFormat?: number;
      }[];
    } | null;

  test('hover: field id, label and description in the language, presence for the subtype, code label, rules, link', async () => {
    const uri = docUri('hover-max.xml');
    const text = sample();
    await s.open(uri, text);
    const h1 = await hover(uri, posOf(text, '<cbc:ProcedureCode', 3));
    assert.ok(h1, 'a hover on cbc:ProcedureCode');
    const md = h1.contents.value;
    assert.match(md, /BT-105-Procedure/);
    const label = translationEntry('field_en.xml', 'field|name|BT-105-Procedure');
    assert.ok(label && md.includes(label), `label ${label} in ${md}`);
    const bt105 = fields().find((f) => f.id === 'BT-105-Procedure') as {
      mandatory: { constraints: { noticeTypes: string[] }[] };
    };
    const mandatoryIn16 = bt105.mandatory.constraints.some((c) => c.noticeTypes.includes('16'));
    assert.equal(mandatoryIn16, true);
    assert.match(md, /\*\*Mandatory\*\* in notice subtype 16/);
    const code = /<cbc:ProcedureCode[^>]*>([^<]*)</.exec(text)?.[1] as string;
    const codeLabel =
      /<Value ColumnRef="code">\s*<SimpleValue>([^<]*)<\/SimpleValue>[\s\S]*?<Value ColumnRef="Name">\s*<SimpleValue>([^<]*)</g;
    const gc = readFileSync(join(SDK_DIR, 'codelists', 'procurement-procedure-type.gc'), 'utf8');
    const labels = new Map([...gc.matchAll(codeLabel)].map((m) => [m[1], m[2]]));
    assert.ok(md.includes(`\`${code}\`: ${labels.get(code)}`), `code label of ${code}`);
    assert.match(md, /BR-BT-00105-0111/);
    assert.match(md, /TED documentation\]\(https:\/\//);

    // In French, the French label.
    await s.changeSettings({ ...s.settings, validation: { language: 'fr', debounceMs: 20 } });
    const h2 = await hover(uri, posOf(text, '<cbc:ProcedureCode', 3));
    const fr = translationEntry('field_fr.xml', 'field|name|BT-105-Procedure');
    assert.ok(fr && h2?.contents.value.includes(fr), `French label ${fr}`);
    await s.changeSettings({
      ...s.settings,
      validation: { language: 'en', debounceMs: 20, timeoutMs: 30000 },
    });
    await s.closeDocument(uri);
  });

  test('hover on an identifier reference names the organisation it points to', async () => {
    const uri = docUri('hover-ref.xml');
    const text = sample();
    await s.open(uri, text);
    // The buyer's reference in cac:ContractingParty, and the organisation's name in efac:Organizations.
    const party = text.indexOf('<cac:ContractingParty>');
    const ref = /<cbc:ID[^>]*>(ORG-\d{4})<\/cbc:ID>/.exec(text.slice(party));
    assert.ok(ref);
    const id = ref[1] as string;
    const org = text.indexOf(`>${id}</cbc:ID>`, text.indexOf('<efac:Organizations>'));
    const name = /<cac:PartyName>\s*<cbc:Name[^>]*>([^<]*)</.exec(text.slice(org))?.[1] as string;
    const h1 = await hover(uri, lineCol(text, party + (ref.index ?? 0) + ref[0].indexOf(id) + 2));
    assert.ok(h1?.contents.value.includes(`**${id}** → efac:Organization`), h1?.contents.value);
    assert.ok(h1?.contents.value.includes(name), `the name ${name}`);
    await s.closeDocument(uri);
  });

  test('hover on a CPV code shows its label from cpv.gc', async () => {
    const uri = docUri('hover-cpv.xml');
    const text = sample().replace('>79710000<', '>15000000<');
    await s.open(uri, text);
    const h1 = await hover(uri, posOf(text, '>15000000<', 3));
    assert.match(h1?.contents.value ?? '', /`15000000`: Food, beverages, tobacco and related products/);
    await s.closeDocument(uri);
  });

  test('completion: code-list values with labels, the values of the list in the SDK', async () => {
    const uri = docUri('complete-values.xml');
    const text = sample();
    await s.open(uri, text);
    const r = await complete(uri, posOf(text, '<cbc:ProcedureCode', 0, 0));
    void r;
    const inside = text.indexOf('>', text.indexOf('<cbc:ProcedureCode')) + 1;
    const items = (await complete(uri, lineCol(text, inside)))?.items ?? [];
    // The list, narrowed to what the subtype's rules allow: BR-BT-00105-0135 in SDK 1.15.1's
    // validation-stage-3b-16.sch (read here with a regex, not the reader under test).
    const codes = ruledProcedureTypesOf16(SDK_DIR);
    assert.ok(codes.length > 3 && codes.length < gcCodes('procurement-procedure-type.gc').length);
    assert.deepEqual(
      items.map((i) => i.label).sort(),
      gcCodes('procurement-procedure-type.gc')
        .filter((c) => codes.includes(c))
        .sort(),
    );
    assert.ok(items.find((i) => i.label === 'open')?.detail, 'labels come along');
    await s.closeDocument(uri);
  });

  test('completion: attributes with their fixed values, and child elements after <, mandatory first', async () => {
    const uri = docUri('complete-elements.xml');
    // An empty slot in the procedure's tendering process, whose procedure type is not written yet
    // (an element already there is not offered again).
    const base = sample().replace(
      /\s*<cbc:ProcedureCode listName="procurement-procedure-type">[^<]*<\/cbc:ProcedureCode>/,
      '',
    );
    const tp = base.indexOf('<cac:TenderingProcess>');
    const text = `${base.slice(0, tp + '<cac:TenderingProcess>'.length)}\n<${base.slice(tp + '<cac:TenderingProcess>'.length)}`;
    await s.open(uri, text);
    const lt = text.indexOf('\n<', tp) + 2;
    const items = (await complete(uri, lineCol(text, lt)))?.items ?? [];
    const proc = items.find((i) => i.label === 'cbc:ProcedureCode');
    assert.ok(proc, `cbc:ProcedureCode among ${items.map((i) => i.label).join(', ')}`);
    assert.equal(proc.insertTextFormat, 2);
    assert.match(proc.textEdit.newText, /<cbc:ProcedureCode listName="procurement-procedure-type">/);
    // BT-105 is mandatory in subtype 16: it sorts before every optional child.
    const optional = items.filter((i) => !i.sortText?.startsWith('0'));
    assert.ok(optional.length > 0);
    assert.ok(optional.every((o) => (proc.sortText ?? '') < (o.sortText ?? '')));
    await s.closeDocument(uri);

    // Attributes of an element bound to a list: listName with its fixed value.
    const uri2 = docUri('complete-attrs.xml');
    const text2 = sample().replace(
      /<cbc:ProcedureCode listName="procurement-procedure-type">/,
      '<cbc:ProcedureCode >',
    );
    await s.open(uri2, text2);
    const attrs =
      (await complete(uri2, posOf(text2, '<cbc:ProcedureCode >', '<cbc:ProcedureCode '.length)))?.items ?? [];
    assert.ok(
      attrs.some((i) => i.label === 'listName="procurement-procedure-type"'),
      JSON.stringify(attrs.map((a) => a.label)),
    );
    await s.closeDocument(uri2);
  });

  test('completion: identifiers of the right scheme where a reference is expected', async () => {
    const uri = docUri('complete-ids.xml');
    const text = sample();
    await s.open(uri, text);
    const party = text.indexOf('<cac:ContractingParty>');
    const ref = text.indexOf('ORG-', party);
    const items = (await complete(uri, lineCol(text, ref)))?.items ?? [];
    const defined = [
      ...text
        .slice(text.indexOf('<efac:Organizations>'))
        .matchAll(
          new RegExp(
            `<efac:Company>[\\s\\S]*?<cac:PartyIdentification>${GAP}<cbc:ID[^>]*>(ORG-\\d{4})<`,
            'g',
          ),
        ),
    ].map((m) => m[1]);
    assert.ok(defined.length > 0);
    assert.deepEqual(items.map((i) => i.label).sort(), [...new Set(defined)].sort());
    await s.closeDocument(uri);
  });

  test('outline: notice, procedure, lots with ids and titles, organisations with names', async () => {
    const uri = docUri('symbols.xml');
    const text = sample();
    await s.open(uri, text);
    type Sym = { name: string; kind: number; children?: Sym[] };
    const syms = (await s.connection.sendRequest('textDocument/documentSymbol', {
      textDocument: { uri },
    })) as Sym[];
    assert.equal(syms.length, 1);
    const top = syms[0] as Sym;
    assert.equal(top.name, 'ContractNotice');
    const flat: Sym[] = [];
    const walk = (x: Sym[]) => {
      for (const y of x) {
        flat.push(y);
        walk(y.children ?? []);
      }
    };
    walk(top.children ?? []);
    const lots = [
      ...text.matchAll(/<cac:ProcurementProjectLot>\s*<cbc:ID schemeName="Lot">(LOT-\d{4})</g),
    ].map((m) => m[1]);
    const lotSyms = flat.filter((x) => /^LOT-\d{4}/.test(x.name) && x.kind === 4);
    assert.deepEqual(
      lotSyms.map((x) => x.name.slice(0, 8)),
      lots,
    );
    const firstTitle =
      /<cac:ProcurementProjectLot>[\s\S]*?<cac:ProcurementProject>[\s\S]*?<cbc:Name[^>]*>([^<]*)</.exec(
        text,
      )?.[1];
    assert.ok(lotSyms[0]?.name.includes((firstTitle ?? '').replace(/\s+/g, ' ').trim().slice(0, 20)));
    const orgs = [
      ...text.matchAll(
        new RegExp(
          `<efac:Organization>${GAP}<efac:Company>[\\s\\S]*?<cbc:ID[^>]*>(ORG-\\d{4})<[\\s\\S]*?<cac:PartyName>${GAP}<cbc:Name[^>]*>([^<]*)<`,
          'g',
        ),
      ),
    ];
    for (const o of orgs)
      assert.ok(
        flat.some((x) => x.name === `${o[1]} ${o[2]}`.replace(/\s+/g, ' ').trim()),
        `${o[1]} ${o[2]}`,
      );

    const ws = (await s.connection.sendRequest('workspace/symbol', { query: lots[1] })) as {
      name: string;
      location: { uri: string };
    }[];
    assert.ok(ws.some((w) => w.name.startsWith(lots[1] as string) && w.location.uri === uri));
    await s.closeDocument(uri);
  });

  test('definition, references and a rename that refuses a taken identifier', async () => {
    const uri = docUri('nav.xml');
    const text = sample();
    await s.open(uri, text);
    const party = text.indexOf('<cac:ContractingParty>');
    const refAt = text.indexOf('ORG-', party);
    const id = text.slice(refAt, refAt + 8);
    const def = (await s.connection.sendRequest('textDocument/definition', {
      textDocument: { uri },
      position: lineCol(text, refAt + 1),
    })) as { range: { start: Pos } };
    const defOffset = offsetOf(text, def.range.start);
    assert.equal(text.slice(defOffset, defOffset + 8), id);
    assert.ok(defOffset > text.indexOf('<efac:Organizations>'), 'the definition is in efac:Organizations');
    const occurrences = text.split(`>${id}<`).length - 1;
    const refs = (await s.connection.sendRequest('textDocument/references', {
      textDocument: { uri },
      position: lineCol(text, refAt + 1),
      context: { includeDeclaration: true },
    })) as unknown[];
    assert.equal(refs.length, occurrences);
    const free = 'ORG-0999';
    assert.ok(!text.includes(free));
    const edit = (await s.connection.sendRequest('textDocument/rename', {
      textDocument: { uri },
      position: lineCol(text, refAt + 1),
      newName: free,
    })) as { changes: Record<string, TextEdit[]> };
    const renamed = applyEdits(text, edit.changes[uri] ?? []);
    assert.equal(renamed.split(`>${free}<`).length - 1, occurrences);
    assert.equal(renamed.split(`>${id}<`).length - 1, 0);
    const taken = [...text.matchAll(/>(ORG-\d{4})</g)].map((m) => m[1]).find((x) => x !== id) as string;
    await assert.rejects(
      s.connection.sendRequest('textDocument/rename', {
        textDocument: { uri },
        position: lineCol(text, refAt + 1),
        newName: taken,
      }),
      /already used/,
    );
    await s.closeDocument(uri);
  });

  const actionsFor = async (uri: string, diagnostics: { range: { start: Pos; end: Pos } }[]) =>
    (await s.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostics[0]?.range,
      context: { diagnostics },
    })) as CodeAction[];

  const newNotice = async (subtype: string) => {
    const r = (await s.connection.sendRequest('eforms/newNotice', { subtype })) as {
      ok: boolean;
      xml: string;
    };
    assert.equal(r.ok, true, JSON.stringify(r));
    return r.xml;
  };

  const cvsIds = async (xml: string) => {
    const a = await h.validate(xml, { eFormsSdkVersion: '1.15' });
    assert.equal(a.status, 200, a.text);
    const svrl = a.text;
    return [...svrl.matchAll(/<svrl:failed-assert[^>]*id="([^"]*)"[^>]*location="([^"]*)"/g)].map((m) => ({
      id: m[1],
      location: m[2],
    }));
  };

  test('New Notice: subtype 16 from the SDK validates with only placeholder findings', async () => {
    const xml = await newNotice('16');
    assert.match(xml, /<cbc:CustomizationID>eforms-sdk-1\.15<\/cbc:CustomizationID>/);
    assert.match(xml, /<cbc:SubTypeCode listName="notice-subtype">16<\/cbc:SubTypeCode>/);
    assert.match(xml, /<cbc:NoticeTypeCode listName="competition">cn-standard<\/cbc:NoticeTypeCode>/);
    assert.match(xml, new RegExp(`<cbc:IssueDate>${new Date().toISOString().slice(0, 10)}Z</cbc:IssueDate>`));
    const ids = [
      ...xml.matchAll(/>([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})</g),
    ].map((m) => m[1]);
    assert.equal(new Set(ids).size, 2, 'fresh notice and procedure UUIDs');
    // Every field fields.json makes mandatory for 16 without condition is written.
    const mandatory = fields().filter((f) => {
      const m = f.mandatory as
        | { constraints?: { noticeTypes?: string[]; condition?: string; value: boolean }[] }
        | undefined;
      return (
        !f.attributeOf &&
        m?.constraints?.some((c) => c.value && !c.condition && c.noticeTypes?.includes('16'))
      );
    });
    for (const f of mandatory) {
      const last = String(f.xpathRelative).split('/').pop()?.replace(/\[.*$/, '') as string;
      assert.ok(xml.includes(`<${last}`), `${f.id} (${last})`);
    }
    const failed = await cvsIds(xml);
    // Codes nobody chose are left empty: the sandbox flags them as empty, which is the placeholder.
    const errorsBeyondPlaceholders = failed.filter(
      (f) =>
        !['BR-BT-00738-0901', 'BR-BT-00514-0310'].includes(f.id as string) &&
        !/ItemClassificationCode$/.test(f.location as string) &&
        !onEmptyElement(xml, f.location as string),
    );
    assert.deepEqual(errorsBeyondPlaceholders, []);
  });

  test('quick fix: insert a missing mandatory element (CVS diagnostic), and fix all of that kind', async () => {
    const xml = await newNotice('16');
    // Two lots, both without their description (BR-BT-00024-0178 in the sandbox's CVS).
    const lotStart = xml.indexOf('<cac:ProcurementProjectLot>');
    const lotEnd = xml.indexOf('</cac:ProcurementProjectLot>') + '</cac:ProcurementProjectLot>'.length;
    // The description of the lot's cac:ProcurementProject (BT-24), not another cbc:Description of the
    // lot (BT-99's review deadlines, written before it once the rules ask for it).
    const lot = xml
      .slice(lotStart, lotEnd)
      .replace(
        /(<cac:ProcurementProject>\s*(?:<cbc:ID[^>]*>[^<]*<\/cbc:ID>\s*)?(?:<cbc:Name[^>]*>[^<]*<\/cbc:Name>)?)\s*<cbc:Description[^>]*>[^<]*<\/cbc:Description>/,
        '$1',
      );
    const text = `${xml.slice(0, lotStart)}${lot}\n  ${lot.replace('LOT-0001', 'LOT-0002')}${xml.slice(lotEnd)}`;
    /** Opens the text and waits until the CVS's diagnostics name `count` missing descriptions. */
    const published = async (session: LspSession, uri: string, text: string, count: number) => {
      const pub = await session.openAndPublish(
        uri,
        text,
        'CVS diagnostics',
        (p) => p.diagnostics.filter((d) => d.code === 'BR-BT-00024-0178').length === count,
      );
      return { all: pub.diagnostics, missing: pub.diagnostics.filter((d) => d.code === 'BR-BT-00024-0178') };
    };
    const uri = docUri('fix-missing.xml');
    const pub = await published(s, uri, text, 2);
    const missing = pub.missing;
    const actions = await actionsFor(uri, [missing[0] as never]);
    const insert = actions.find((a) => a.title.startsWith('Insert cbc:Description'));
    assert.ok(insert, actions.map((a) => a.title).join('; '));
    const once = applyEdits(text, insert.edit?.changes?.[uri] ?? []);
    assert.equal((await cvsIds(once)).filter((f) => f.id === 'BR-BT-00024-0178').length, 1);
    const all = actions.find((a) => a.title.startsWith('Fix all'));
    assert.ok(all, 'a fix-all action');
    // Counted over every error and warning that names a missing element, read from the published
    // diagnostics' data. An information naming one (the optional publication date, BR-BT-00738-0901)
    // is a suggestion: its own fix inserts it, "the missing mandatory elements" do not include it.
    const withMissing = <T extends { data?: unknown }>(ds: T[]): T[] =>
      ds.filter((d) => typeof (d.data as { missing?: unknown } | undefined)?.missing === 'string');
    const required = withMissing(pub.all).filter((d) => (d.severity ?? 1) < 3);
    const suggested = withMissing(pub.all).find((d) => (d.severity ?? 1) >= 3);
    assert.ok(suggested, 'an information that names a missing element');
    assert.ok(required.length >= 2);
    assert.ok(all.title.endsWith(`(${required.length})`), all.title);
    const fixed = applyEdits(text, all.edit?.changes?.[uri] ?? []);
    const afterAll = await cvsIds(fixed);
    assert.equal(afterAll.filter((f) => f.id === 'BR-BT-00024-0178').length, 0);
    assert.ok(
      afterAll.some((f) => f.id === suggested.code),
      'the suggestion still stands: fix all left it',
    );
    // The schema order: the description sits before cbc:ProcurementTypeCode, as in the SDK.
    const firstLot = fixed.slice(fixed.indexOf('<cac:ProcurementProjectLot>'));
    assert.ok(firstLot.indexOf('<cbc:Description') < firstLot.indexOf('<cbc:ProcurementTypeCode'));

    // One missing element left (lot 2's description; lot 1's and the publication date inserted by
    // their own fixes): its own fix, and no "fix all" of one (the published copy of the diagnostic in
    // the request is the same diagnostic).
    const dateFinding = withMissing(pub.all).find((d) => d.code !== 'BR-BT-00024-0178');
    assert.ok(dateFinding, 'a second kind of missing element');
    const dateFix = (await actionsFor(uri, [dateFinding as never])).find((a) => a.title.startsWith('Insert'));
    assert.ok(dateFix?.edit?.changes?.[uri]);
    await s.closeDocument(uri);
    const oneLeft = applyEdits(text, [...(insert.edit?.changes?.[uri] ?? []), ...dateFix.edit.changes[uri]]);
    const oneUri = docUri('fix-missing-one.xml');
    const onePub = await published(s, oneUri, oneLeft, 1);
    assert.equal(withMissing(onePub.all).length, 1);
    const left = onePub.missing;
    const oneActions = await actionsFor(oneUri, [left[0] as never]);
    assert.ok(oneActions.some((a) => a.title.startsWith('Insert cbc:Description')));
    assert.deepEqual(
      oneActions.filter((a) => a.title.startsWith('Fix all')).map((a) => a.title),
      [],
    );
    await s.closeDocument(oneUri);

    // A client that resolves code actions (VS Code) gets "fix all" without its edit, then the same
    // edit on codeAction/resolve: on tens of thousands of findings the edit is megabytes, and the
    // request comes with every cursor move.
    const r = await LspSession.start({
      apiKey: TEST_API_KEY,
      settings: s.settings,
      resolveCodeActions: true,
    });
    try {
      const rMissing = (await published(r, uri, text, 2)).missing;
      const offered = (await r.connection.sendRequest('textDocument/codeAction', {
        textDocument: { uri },
        range: rMissing[0]?.range,
        context: { diagnostics: [rMissing[0]] },
      })) as (CodeAction & { data?: unknown })[];
      const lazy = offered.find((a) => a.title.startsWith('Fix all'));
      assert.ok(lazy, offered.map((a) => a.title).join('; '));
      assert.equal(lazy.title, all.title);
      assert.equal(lazy.edit, undefined, 'no edit before resolve');
      assert.ok(lazy.data !== undefined);
      // Each quick fix keeps its edit: only "fix all" waits.
      assert.ok(offered.find((a) => a.title.startsWith('Insert cbc:Description'))?.edit);
      const resolved = (await r.connection.sendRequest('codeAction/resolve', lazy)) as CodeAction;
      assert.deepEqual(resolved.edit?.changes?.[uri], all.edit?.changes?.[uri]);
      // Data a client made up is answered with the action as it came.
      const bogus = { title: 'x', data: { uri, fixAll: 'delete-everything' } };
      assert.deepEqual(await r.connection.sendRequest('codeAction/resolve', bogus), bogus);
    } finally {
      await r.stop();
    }
  });

  test('quick fix: an unknown code becomes the nearest valid one', async () => {
    const xml = (await newNotice('16')).replace('>cn-standard<', '>cn-standrd<');
    const uri = docUri('fix-code.xml');
    const pub = await s.openAndPublish(uri, xml, 'CVS diagnostics', (p) =>
      p.diagnostics.some((d) => d.code === 'BR-BT-00002-0052'),
    );
    const d = pub.diagnostics.find((x) => x.code === 'BR-BT-00002-0052');
    const actions = await actionsFor(uri, [d as never]);
    assert.equal(
      actions[0]?.title.startsWith("Did you mean 'cn-standard'"),
      true,
      actions.map((a) => a.title).join('; '),
    );
    const fixed = applyEdits(xml, actions[0]?.edit?.changes?.[uri] ?? []);
    assert.ok(!(await cvsIds(fixed)).some((f) => f.id === 'BR-BT-00002-0052'));
    await s.closeDocument(uri);
  });

  test('quick fix: a fresh UUID for a malformed procedure id', async () => {
    const xml = (await newNotice('16')).replace(
      /<cbc:ContractFolderID>[^<]*</,
      '<cbc:ContractFolderID>proc-1<',
    );
    const uri = docUri('fix-uuid.xml');
    const pub = await s.openAndPublish(uri, xml, 'CVS diagnostics', (p) =>
      p.diagnostics.some((d) => d.code === 'BR-BT-00004-0052'),
    );
    const d = pub.diagnostics.find((x) => x.code === 'BR-BT-00004-0052');
    const actions = await actionsFor(uri, [d as never]);
    const fix = actions.find((a) => a.title.includes('UUID'));
    assert.ok(fix);
    const fixed = applyEdits(xml, fix.edit?.changes?.[uri] ?? []);
    assert.ok(!(await cvsIds(fixed)).some((f) => f.id === 'BR-BT-00004-0052'));
    await s.closeDocument(uri);
  });

  test('quick fix: the local customization-id diagnostic inserts cbc:CustomizationID', async () => {
    const xml = (await newNotice('16')).replace(/\s*<cbc:CustomizationID>[^<]*<\/cbc:CustomizationID>/, '');
    const uri = docUri('fix-cid.xml');
    const mark = s.mark;
    await s.open(uri, xml);
    const pub = await s.nextPublish(uri, mark, 'local diagnostics', (p) =>
      p.diagnostics.some((d) => d.code === 'customization-id'),
    );
    const d = pub.diagnostics.find((x) => x.code === 'customization-id');
    const actions = await actionsFor(uri, [d as never]);
    assert.ok(
      actions[0]?.title.startsWith('Insert cbc:CustomizationID'),
      actions.map((a) => a.title).join('; '),
    );
    const fixed = applyEdits(xml, actions[0]?.edit?.changes?.[uri] ?? []);
    const m2 = s.mark;
    await s.replace(uri, fixed);
    const after2 = await s.nextPublish(uri, m2, 'local diagnostics after the fix', (p) =>
      p.diagnostics.every((x) => (x.source === 'eForms' ? x.code !== 'customization-id' : true)),
    );
    assert.ok(!after2.diagnostics.some((x) => x.code === 'customization-id'));
    // Right after cbc:UBLVersionID, as the schema orders it.
    assert.match(
      fixed,
      /<cbc:UBLVersionID>2\.3<\/cbc:UBLVersionID>\s*<cbc:CustomizationID>eforms-sdk-1\.15<\/cbc:CustomizationID>/,
    );
    await s.closeDocument(uri);
  });

  test('quick fix: raise cbc:VersionID after "same noticeId and versionId already exists"', async () => {
    const xml = await newNotice('16');
    const uri = docUri('fix-version.xml');
    await s.open(uri, xml);
    const at = xml.indexOf('<cbc:VersionID>');
    const diag = {
      range: { start: lineCol(xml, at), end: lineCol(xml, at + 14) },
      code: 'notice-version-exists',
      source: 'eForms eNotices2',
      message: 'A notice with the same notice id and version already exists.',
    };
    const actions = await actionsFor(uri, [diag]);
    const bump = actions.find((a) => a.title === 'Increase cbc:VersionID to 02');
    assert.ok(bump, actions.map((a) => a.title).join('; '));
    assert.match(applyEdits(xml, bump.edit?.changes?.[uri] ?? []), /<cbc:VersionID>02<\/cbc:VersionID>/);
    await s.closeDocument(uri);
  });

  test('diagnostics link to their rule and point at the other field a cross-field rule involves', async () => {
    const xml = (await newNotice('16')).replace(
      /(<cac:ProcurementProjectLot>[\s\S]*?<cac:TenderingProcess>)/,
      '$1\n      <cac:TenderSubmissionDeadlinePeriod><cbc:EndDate>2000-01-01Z</cbc:EndDate><cbc:EndTime>12:00:00Z</cbc:EndTime></cac:TenderSubmissionDeadlinePeriod>',
    );
    const uri = docUri('related.xml');
    const pub = await s.openAndPublish(uri, xml, 'BR-BT-00131-0151', (p) =>
      p.diagnostics.some((d) => d.code === 'BR-BT-00131-0151'),
    );
    const d = pub.diagnostics.find((x) => x.code === 'BR-BT-00131-0151') as {
      codeDescription?: { href: string };
      relatedInformation?: { location: { range: { start: Pos } }; message: string }[];
    };
    assert.match(d.codeDescription?.href ?? '', /^https:\/\/.*BR-BT-00131-0151/);
    // fields.json says the rule compares BT-131(d)-Lot with BT-05(a)-notice, cbc:IssueDate.
    const rel = d.relatedInformation?.find((r) => r.message.startsWith('BT-05(a)-notice'));
    assert.ok(rel, JSON.stringify(d.relatedInformation));
    assert.equal(offsetOf(xml, rel.location.range.start), xml.indexOf('<cbc:IssueDate>'));
    await s.closeDocument(uri);
  });
});

describe('authoring with a downloaded SDK only', { skip }, () => {
  // No eforms.sdk.path: the release sits in the download cache (as VS Code's consent flow or
  // `eforms validate --local --download` leave it), and the help still comes from it.
  let s: LspSession;
  let cache = '';
  before(async () => {
    cache = mkdtempSync(join(tmpdir(), 'eforms-sdk-cache-'));
    symlinkSync(SDK_DIR, join(cache, '1.15.1'));
    s = await LspSession.start({ settings: { environment: 'sandbox' }, sdkCacheRoot: cache });
  });
  after(async () => {
    await s?.stop();
    if (cache) rmSync(cache, { recursive: true, force: true });
  });

  test('hover reads the cached release', async () => {
    const uri = docUri('cached-sdk.xml');
    const text = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_maximal.xml'), 'utf8');
    await s.open(uri, text);
    const at = text.indexOf('<cbc:ProcedureCode') + 3;
    const h = (await s.connection.sendRequest('textDocument/hover', {
      textDocument: { uri },
      position: lineCol(text, at),
    })) as { contents: { value: string } } | null;
    const label = translationEntry('field_en.xml', 'field|name|BT-105-Procedure');
    assert.ok(h && label && h.contents.value.includes(label), h?.contents.value);
    assert.match(h.contents.value, /BT-105-Procedure/);
    await s.closeDocument(uri);
  });
});

/** Whether an SVRL location selects an empty element of the notice: a code left for the user to choose. */
function onEmptyElement(xml: string, location: string): boolean {
  const index = indexXml(xml);
  const ns = new Map<string, string>([
    ['cn', 'urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2'],
    ...Object.entries(SDK_NAMESPACES),
  ]);
  const at = resolveLocation(index, location, ns);
  const el = at ? index.elements[at.element] : undefined;
  return (
    el !== undefined &&
    at?.attribute === undefined &&
    el.children.length === 0 &&
    textContent(index, el).trim() === ''
  );
}
