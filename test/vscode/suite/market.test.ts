// Agri-food market data in the editor, against the sandbox: the Market Explorer opens on a series and
// draws it (the panel reports how many points it drew), CSV export writes every record, and hovering a
// CPV code of milk in a notice shows the EU price with a link to the explorer. Expected counts come
// from the sandbox's raw answers fetched here, never from the extension.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Commands } from '../../../client/command-ids';
import { api, closeAll, fixtureText, setSetting, testEnv } from './editor-support';

/** Internal command of client/market/index.ts: CSV export to a given Uri, without the dialog. */
const EXPORT_CSV = 'eforms.marketExplorer.exportCsv';

const SERIES = {
  sector: 'pigmeat',
  filters: {
    memberStateCodes: ['EU'],
    pigClasses: ['E'],
    beginDate: ['01/01/2023'],
    endDate: ['31/12/2023'],
  },
};
const RAW_QUERY = 'memberStateCodes=EU&pigClasses=E&beginDate=01/01/2023&endDate=31/12/2023';

async function raw(path: string): Promise<Record<string, unknown>[]> {
  const r = await fetch(`${testEnv.sandboxUrl}/agrifood${path}`);
  assert.equal(r.status, 200, path);
  return (await r.json()) as Record<string, unknown>[];
}

suite('agri-food market data with the sandbox', () => {
  suiteSetup(async () => {
    // The runner always provides these: without them this proof would silently vanish from the run.
    if (!testEnv.sandboxUrl)
      throw new Error('EFORMS_TEST_SANDBOX_URL and EFORMS_TEST_API_KEY must be set by the in-editor runner');
    await api();
    await setSetting('environment', 'sandbox');
    await setSetting('sandboxUrl', testEnv.sandboxUrl);
    // Always ask the sandbox: the counts below are compared with its answers.
    await setSetting('agrifood.cacheTtlHours', 0);
  });
  teardown(closeAll);
  suiteTeardown(async () => {
    await setSetting('agrifood.cacheTtlHours', undefined);
  });

  test('the explorer opens on a series and draws every price of it', async () => {
    const expected = await raw(`/api/pigmeat/prices?${RAW_QUERY}`);
    assert.ok(expected.length > 40, 'a year of weekly prices');
    const report = await vscode.commands.executeCommand<{ rendered: number; series: number }>(
      Commands.openMarketExplorer,
      SERIES,
    );
    assert.ok(report, 'the panel reported its first chart');
    assert.equal(report.series, 1);
    assert.equal(report.rendered, expected.length);
  });

  test('CSV export writes one row per record, with the spec fields as header', async () => {
    const expected = await raw(`/api/pigmeat/prices?${RAW_QUERY}`);
    await vscode.commands.executeCommand(Commands.openMarketExplorer, SERIES);
    const target = vscode.Uri.file(join(mkdtempSync(join(tmpdir(), 'eforms-market-')), 'pigmeat.csv'));
    await vscode.commands.executeCommand(EXPORT_CSV, target);
    const lines = readFileSync(target.fsPath, 'utf8').trimEnd().split(/\r?\n/);
    assert.equal(lines.length - 1, expected.length);
    assert.deepEqual(lines[0]?.split(',').sort(), Object.keys(expected[0] as object).sort());
    const prices = new Set(expected.map((r) => String(r.price)));
    const header = (lines[0] as string).split(',');
    for (const l of lines.slice(1)) assert.ok(prices.has(l.split(',')[header.indexOf('price')] as string), l);
  });

  test('hovering a milk CPV code in a notice shows the EU price and a link to the explorer', async () => {
    const original = fixtureText('valid-cn.xml');
    const m = /(<cbc:ItemClassificationCode listName="cpv">)(\d{8})(<\/cbc:ItemClassificationCode>)/.exec(
      original,
    );
    assert.ok(m, 'the fixture has a CPV code');
    const text = `${original.slice(0, m.index)}${m[1]}15511000${m[3]}${original.slice(m.index + m[0].length)}`;
    const offset = m.index + (m[1] as string).length + 3;
    const doc = await vscode.workspace.openTextDocument({ language: 'xml', content: text });
    await vscode.window.showTextDocument(doc);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      doc.positionAt(offset),
    );
    const texts = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)));
    // appendText escapes Markdown punctuation ("12\\-month", "€45\\.20"): read it as people see it.
    const mine = texts
      .map((t) => t.replace(/&nbsp;/g, ' ').replace(/\\([\\`*_{}[\]()#+\-.!<>|~&])/g, '$1'))
      .find((t) => t.includes('EU market price'));
    assert.ok(mine, `no market hover among: ${texts.join('\n---\n')}`);
    const latestLine = /Latest: [^\n]*/.exec(mine)?.[0] ?? '';
    assert.match(latestLine, /Latest: €?\d/, mine);
    // The currency once: "45.20 €/100kg", never "€45.20 €/100kg".
    assert.equal((latestLine.match(/€|EUR/g) ?? []).length, 1, latestLine);
    // The change names the two periods it compares.
    assert.match(
      mine,
      /12-month change: [+−]?\d[^\n]*period from \d{2}\/\d{2}\/\d{4}[^\n]*period from \d{2}\/\d{2}\/\d{4}/,
    );
    assert.match(mine, /command:eforms\.openMarketExplorer\?/);
    // The price shown is the last EU raw milk price of the sandbox.
    const year = new Date().getUTCFullYear();
    const milk = await raw(
      `/api/rawMilk/prices?memberStateCodes=EU&products=Raw%20milk&years=${year - 2},${year - 1},${year}`,
    );
    const last = milk
      .sort((a, b) => Number(a.year) * 12 + Number(a.month) - (Number(b.year) * 12 + Number(b.month)))
      .pop();
    assert.ok(last);
    assert.ok(mine.includes(String(last.price)), `${mine} shows ${String(last.price)}`);
  });
});
