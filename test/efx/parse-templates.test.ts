// Every view template of every SDK release in ../shared parses, and the parser's structure agrees with
// counts taken from the raw text by plain regular expressions (lines, indentation, outline numbers,
// context ids, label and expression blocks), which know nothing of the parser.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, test } from 'node:test';
import { type LabelBlock, parseEfxTemplate, type TemplateFragment } from '../../core/efx';
import { skipUnless } from '../support/shared-data';
import { releasesWithTemplates, SDK_ROOT, templateFiles } from './efx-support';

const releases = releasesWithTemplates();

function expressionBlocks(parts: TemplateFragment[]): number {
  let n = 0;
  const inLabel = (l: LabelBlock): number => {
    if (l.form === 'standard')
      return [l.assetType, l.labelType, l.assetId].filter((p) => p.kind === 'expression').length;
    if (l.form === 'bt' || l.form === 'field') return l.labelType.kind === 'expression' ? 1 : 0;
    return 0;
  };
  for (const p of parts) {
    if (p.kind === 'expression') n++;
    if (p.kind === 'label') n += inLabel(p.label);
  }
  return n;
}

describe('EFX templates of the SDK releases parse', { skip: skipUnless(SDK_ROOT) }, () => {
  test('at least one release in ../shared has view templates', () => {
    assert.ok(releases.length > 0, `no view-templates/ under ${SDK_ROOT}`);
  });
  for (const release of releases) {
    test(`${basename(release)}: every .efx parses, line by line as the text says`, () => {
      const files = templateFiles(release);
      assert.ok(files.length >= 40, `${files.length} templates`);
      let total = 0;
      for (const f of files) {
        const text = readFileSync(join(release, 'view-templates', f), 'utf8');
        const parsed = parseEfxTemplate(text, f);
        // Independent reading: a template line is any line that is neither blank nor a `//` comment.
        const raw = text.split(/\r\n|\n|\r|\f/).filter((l) => !/^[ \t]*(\/\/|$)/.test(l));
        assert.equal(parsed.lines.length, raw.length, `${f}: number of template lines`);
        total += raw.length;
        let rootCount = 0;
        raw.forEach((l, i) => {
          const line = parsed.lines[i];
          const where = `${f}:${line.line}`;
          const tabs = /^\t*/.exec(l)?.[0].length ?? 0;
          assert.equal(line.level, tabs, `${where}: level from the leading tabs`);
          if (tabs === 0) rootCount++;
          const outline = /^\t*([0-9]+)[ \t]/.exec(l);
          assert.equal(
            line.outlineNumber,
            outline ? Number(outline[1]) : undefined,
            `${where}: outline number`,
          );
          const ctx = /^\t*(?:[0-9]+[ \t]+)?\{\/?((?:ND|BT|OPT|OPP|OPA)-[^[\]}\s]+)/.exec(l);
          assert.ok(ctx, `${where}: the regex finds a context`);
          assert.equal(line.context.id, ctx[1], `${where}: context id`);
          // The template text ends at the first ` //` (the SDK writes no `//` inside its expressions).
          const body = l.replace(/[ \t]\/\/.*$/, '');
          const labels = (body.match(/#\{|#value/g) ?? []).length;
          const exprs = (body.match(/\$\{/g) ?? []).length;
          const contextValues = (body.match(/\$value/g) ?? []).length;
          assert.equal(
            line.template.filter((p) => p.kind === 'label').length,
            labels,
            `${where}: label blocks`,
          );
          assert.equal(expressionBlocks(line.template), exprs, `${where}: expression blocks`);
          assert.equal(
            line.template.filter((p) => p.kind === 'context-value').length,
            contextValues,
            `${where}: $value`,
          );
        });
        assert.equal(parsed.roots.length, rootCount, `${f}: top-level lines`);
        const inTree = (ls: typeof parsed.roots): number =>
          ls.reduce((n, x) => n + 1 + inTree(x.children), 0);
        assert.equal(inTree(parsed.roots), parsed.lines.length, `${f}: the tree holds every line once`);
      }
      assert.ok(total > 10000, `${total} template lines in ${basename(release)}`);
    });
  }
});
