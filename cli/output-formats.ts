// Renders findings for people and machines: compiler-style text lines, a JSON array with LSP ranges,
// and SARIF 2.1.0 for code-scanning tools. The fields are the finding's own, as core completes them
// (rule link, node, related places), the same the editor's diagnostics carry. Pure string building:
// no I/O, no `vscode` import here.

import { posix, win32 } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Finding, Severity } from '../core/findings';
import { terminalLine } from '../core/text';

export type OutputFormat = 'text' | 'json' | 'sarif';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['text', 'json', 'sarif'];

export function isOutputFormat(s: string): s is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(s);
}

/** `file` is shown as given (text) or as a URI reference with forward slashes (SARIF). */
export function formatFindings(findings: Finding[], file: string, format: OutputFormat): string {
  if (format === 'json') return JSON.stringify(findings.map(toJson), null, 2);
  if (format === 'sarif') return JSON.stringify(toSarif(findings, file), null, 2);
  return findings
    .map((f) => {
      // One-based, as compilers print them and editors parse them; the column counts UTF-16 units.
      const line = f.range.start.line + 1;
      const col = f.range.start.character + 1;
      // Report text comes from a service or a file: through the one terminal sanitiser, every field.
      return `${terminalLine(file)}:${line}:${col}: ${f.severity} ${terminalLine(f.id)} ${terminalLine(f.message)}`;
    })
    .join('\n');
}

/** `2 errors, 1 warning` — for the end of a text report; severities with none are left out. */
export function summarize(findings: Finding[]): string {
  const count = (s: Severity): number => findings.filter((f) => f.severity === s).length;
  const parts: string[] = [];
  for (const [severity, word] of [
    ['error', 'error'],
    ['warning', 'warning'],
    ['info', 'info'],
  ] as const) {
    const n = count(severity);
    if (n > 0) parts.push(`${n} ${word}${n === 1 || word === 'info' ? '' : 's'}`);
  }
  return parts.length === 0 ? 'no findings' : parts.join(', ');
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

interface JsonFinding {
  id: string;
  severity: Severity;
  message: string;
  location: string;
  range: Finding['range'];
  source: Finding['source'];
  resolved: boolean;
  flag?: string;
  field?: string;
  missing?: string;
  test?: string;
  node?: string;
  help?: string;
  related?: { range: Finding['range']; message: string }[];
}

function copyRange(r: Finding['range']): Finding['range'] {
  return {
    start: { line: r.start.line, character: r.start.character },
    end: { line: r.end.line, character: r.end.character },
  };
}

/** SARIF's region: one-based lines and columns. */
function regionOf(r: Finding['range']): object {
  return {
    startLine: r.start.line + 1,
    startColumn: r.start.character + 1,
    endLine: r.end.line + 1,
    endColumn: r.end.character + 1,
  };
}

function toJson(f: Finding): JsonFinding {
  const out: JsonFinding = {
    id: f.id,
    severity: f.severity,
    message: f.message,
    location: f.location,
    range: copyRange(f.range),
    source: f.source,
    resolved: f.resolved,
  };
  if (f.flag !== undefined) out.flag = f.flag;
  if (f.field !== undefined) out.field = f.field;
  if (f.missing !== undefined) out.missing = f.missing;
  if (f.test !== undefined) out.test = f.test;
  if (f.node !== undefined) out.node = f.node;
  if (f.help !== undefined) out.help = f.help;
  if (f.related?.length)
    out.related = f.related.map((r) => ({ range: copyRange(r.range), message: r.message }));
  return out;
}

const SARIF_LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
};

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A URI reference for a file name: absolute paths as file: URLs (pathToFileURL); relative ones stay
 * relative (portable across checkouts), every segment percent-encoded, so that no name reads as a
 * scheme (`javascript:alert(1).xml`), a fragment (`#`), a query (`?`) or a separator it is not (`\` is
 * one only on Windows).
 */
export function sarifUri(file: string, platform: NodeJS.Platform = process.platform): string {
  const windows = platform === 'win32';
  if (windows ? win32.isAbsolute(file) : posix.isAbsolute(file)) return pathToFileURL(file, { windows }).href;
  return (
    file
      .split(windows ? /[\\/]/ : '/')
      // A lone surrogate (possible in a Windows name) cannot be percent-encoded: U+FFFD stands for it.
      .map((segment) => encodeURIComponent(segment.replace(LONE_SURROGATE, '\ufffd')))
      .join('/')
  );
}

function toSarif(findings: Finding[], file: string): object {
  const ruleIndex = new Map<string, number>();
  const rules: object[] = [];
  for (const f of findings) {
    if (ruleIndex.has(f.id)) continue;
    ruleIndex.set(f.id, rules.length);
    const rule: Record<string, unknown> = { id: f.id };
    if (f.test) rule.fullDescription = { text: `Schematron test: ${oneLine(f.test)}` };
    if (f.help) rule.helpUri = f.help;
    rules.push(rule);
  }
  const uri = sarifUri(file);
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'eforms', informationUri: 'https://docs.ted.europa.eu/eforms/', rules } },
        // SARIF's default columnKind is utf16CodeUnits: the same columns LSP counts, one-based here.
        columnKind: 'utf16CodeUnits',
        results: findings.map((f) => {
          const properties: Record<string, unknown> = { location: f.location, resolved: f.resolved };
          if (f.flag !== undefined) properties.flag = f.flag;
          if (f.field !== undefined) properties.field = f.field;
          if (f.missing !== undefined) properties.missing = f.missing;
          if (f.node !== undefined) properties.node = f.node;
          const related = (f.related ?? []).map((r, i) => ({
            id: i,
            physicalLocation: { artifactLocation: { uri }, region: regionOf(r.range) },
            message: { text: r.message },
          }));
          return {
            ruleId: f.id,
            ruleIndex: ruleIndex.get(f.id),
            level: SARIF_LEVEL[f.severity],
            message: { text: f.message },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri },
                  region: regionOf(f.range),
                },
              },
            ],
            ...(related.length ? { relatedLocations: related } : {}),
            properties,
          };
        }),
      },
    ],
  };
}
