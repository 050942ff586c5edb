// Renders findings for people and machines: compiler-style text lines, JSON with LSP ranges (one array
// for a notice; for several, every file with its outcome), and SARIF 2.1.0 for code-scanning tools (rule
// descriptions and help, tool and SDK versions, fingerprints, files that could not be validated as tool
// execution notifications). The fields are the finding's own, as core completes them
// (rule link, node, related places), the same the editor's diagnostics carry. Pure string building:
// no I/O, no `vscode` import here.

import { createHash } from 'node:crypto';
import { posix, win32 } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Finding, Severity } from '../core/findings';
import { INPUT_LIMITS } from '../core/notice';
import { FINDINGS_OMITTED } from '../core/svrl';
import { terminalLine } from '../core/text';

export type OutputFormat = 'text' | 'json' | 'sarif';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['text', 'json', 'sarif'];

export function isOutputFormat(s: string): s is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(s);
}

/** `file` is shown as given (text) or as a URI reference with forward slashes (SARIF). */
export function formatFindings(findings: Finding[], file: string, format: OutputFormat): string {
  if (format === 'json') return JSON.stringify(findings.map(toJson), null, 2);
  if (format === 'sarif') return formatOutcomes([{ file, outcome: 'validated', findings }], 'sarif');
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

/** The tool's version: the build defines it (scripts/build.mjs), unbundled runs say `dev`. */
declare const __VERSION__: string | undefined;
export const TOOL_VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : 'dev';
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** One input file and what became of it: every file given is listed, validated or not. */
export interface FileOutcome {
  file: string;
  /** `validated`: `findings` are the notice's; `failed`: it could not be validated, `error` says why. */
  outcome: 'validated' | 'failed';
  findings: Finding[];
  error?: string;
  /** The SDK release whose rules gave the findings (`1.15.1`; the CVS names only `1.15`). */
  sdkVersion?: string;
  /** Which engine validated: the CVS, the SDK rules run here, or a report read back (`check`). */
  engine?: 'cvs' | 'local' | 'report';
}

/** JSON or SARIF for several files, each with its outcome (a file that failed is listed too). */
export function formatOutcomes(files: readonly FileOutcome[], format: 'json' | 'sarif'): string {
  if (format === 'sarif') return JSON.stringify(toSarif(files), null, 2);
  // The same text as JSON.stringify of the whole with an indent of 2, made of the pieces a batch writes
  // one by one as its notices are done.
  if (files.length === 0) return jsonDocumentHead(0);
  return [
    jsonDocumentHead(files.length),
    ...files.map((o, i) => jsonEntry(o, i === files.length - 1)),
    JSON_DOCUMENT_TAIL,
  ].join('\n');
}

/**
 * One file's entry of the JSON output, as the whole document holds it (indented at its depth, with the
 * comma that follows every entry but the last): a batch makes each as its notice is done, while its
 * workers still run, and writes them at the end.
 */
export function jsonEntry(o: FileOutcome, last: boolean): string {
  const counts = { errors: 0, warnings: 0, infos: 0 };
  for (const f of o.findings)
    counts[f.severity === 'error' ? 'errors' : f.severity === 'warning' ? 'warnings' : 'infos']++;
  const entry = {
    file: o.file,
    outcome: o.outcome,
    ...(o.error !== undefined ? { error: o.error } : {}),
    ...(o.sdkVersion !== undefined ? { sdkVersion: o.sdkVersion } : {}),
    ...(o.engine !== undefined ? { engine: o.engine } : {}),
    ...counts,
    findings: o.findings.map(toJson),
  };
  // A string's own line breaks are escaped: every line break here is the layout's.
  return `    ${JSON.stringify(entry, null, 2).replace(/\n/g, '\n    ')}${last ? '' : ','}`;
}

/** The JSON document's lines before its first entry; with none, the whole document. */
export function jsonDocumentHead(entries: number): string {
  const tool = JSON.stringify({ name: 'eforms', version: TOOL_VERSION }, null, 2).replace(/\n/g, '\n  ');
  return entries === 0 ? `{\n  "tool": ${tool},\n  "files": []\n}` : `{\n  "tool": ${tool},\n  "files": [`;
}

/** The JSON document's lines after its last entry. */
export const JSON_DOCUMENT_TAIL = '  ]\n}';

/**
 * The rule's one-line description: the message without what this notice gave (`— 'x' is not …`), and
 * without its closing full stop (the descriptions add their own). The note of the findings left out
 * of a report is described without its counts, which differ from file to file.
 */
function describeRule(f: Finding): string {
  if (f.id === FINDINGS_OMITTED)
    return `The report holds more findings than the ${INPUT_LIMITS.findings.max.toLocaleString('en-US')} this tool shows of one notice`;
  const cut = f.message.indexOf(' — ');
  return oneLine(cut > 0 ? f.message.slice(0, cut) : f.message).replace(/\.$/, '');
}

/** What made a finding, for a rule's help: the SDK's rules, the CVS, or this tool. */
function madeBy(f: Finding): string {
  if (f.id === FINDINGS_OMITTED) return 'A note of this tool: correct the findings shown and validate again.';
  return f.source === 'local'
    ? 'A check of this tool, made before the rules run.'
    : `Rule ${f.id} of the eForms rules.`;
}

/** Stable across edits that move lines: the rule and the place in the notice's structure. */
function fingerprint(f: Finding): string {
  return createHash('sha256')
    .update(`${f.id}\u0000${f.location || `${f.range.start.line}:${f.range.start.character}`}`)
    .digest('hex')
    .slice(0, 32);
}

function toSarif(files: readonly FileOutcome[]): object {
  const ruleIndex = new Map<string, number>();
  const rules: Record<string, unknown>[] = [];
  const sdkVersions = new Set<string>();
  const artifacts = files.map((o) => ({ location: { uri: sarifUri(o.file) } }));
  const results: object[] = [];
  const notifications: object[] = [];
  files.forEach((o, fileIndex) => {
    if (o.sdkVersion) sdkVersions.add(o.sdkVersion);
    const artifactLocation = { uri: sarifUri(o.file), index: fileIndex };
    if (o.outcome === 'failed') {
      notifications.push({
        level: 'error',
        message: { text: `${o.file} was not validated: ${oneLine(o.error ?? 'unknown reason')}` },
        locations: [{ physicalLocation: { artifactLocation } }],
        descriptor: { id: 'file-not-validated' },
      });
      return;
    }
    for (const f of o.findings) {
      if (f.sdkVersion) sdkVersions.add(f.sdkVersion);
      if (!ruleIndex.has(f.id)) {
        ruleIndex.set(f.id, rules.length);
        const short = describeRule(f);
        const full = [
          `${short}.`,
          f.field ? `Field or node: ${f.field}.` : '',
          f.test ? `Schematron test: ${oneLine(f.test)}` : '',
        ]
          .filter((x) => x)
          .join(' ');
        const rule: Record<string, unknown> = {
          id: f.id,
          name: f.field ? `${f.field}/${f.id}` : f.id,
          shortDescription: { text: short },
          fullDescription: { text: full },
          help: {
            text: f.help
              ? `${short}. The eForms documentation explains rule ${f.id}: ${f.help}`
              : `${short}. ${madeBy(f)}`,
          },
          defaultConfiguration: { level: SARIF_LEVEL[f.severity] },
          properties: { tags: ['eforms', ...(f.flag ? [f.flag.toLowerCase()] : [])] },
        };
        if (f.help) rule.helpUri = f.help;
        rules.push(rule);
      }
      const properties: Record<string, unknown> = { location: f.location, resolved: f.resolved };
      if (f.flag !== undefined) properties.flag = f.flag;
      if (f.field !== undefined) properties.field = f.field;
      if (f.missing !== undefined) properties.missing = f.missing;
      if (f.node !== undefined) properties.node = f.node;
      if (f.test !== undefined) properties.test = f.test;
      if (f.sdkVersion !== undefined) properties.sdkVersion = f.sdkVersion;
      const related = (f.related ?? []).map((r, i) => ({
        id: i,
        physicalLocation: { artifactLocation, region: regionOf(r.range) },
        message: { text: r.message },
      }));
      results.push({
        ruleId: f.id,
        ruleIndex: ruleIndex.get(f.id),
        level: SARIF_LEVEL[f.severity],
        message: { text: f.message },
        locations: [{ physicalLocation: { artifactLocation, region: regionOf(f.range) } }],
        ...(related.length ? { relatedLocations: related } : {}),
        partialFingerprints: { 'eformsFinding/v1': fingerprint(f) },
        properties,
      });
    }
  });
  const driver: Record<string, unknown> = {
    name: 'eforms',
    fullName: 'eForms Notice Tools',
    version: TOOL_VERSION,
    informationUri: 'https://docs.ted.europa.eu/eforms/',
    rules,
  };
  if (SEMVER.test(TOOL_VERSION)) driver.semanticVersion = TOOL_VERSION;
  // The SDK whose rules ran: a component of the tool, named with its version.
  const extensions = [...sdkVersions].sort().map((v) => ({
    name: 'eForms SDK',
    version: v,
    ...(SEMVER.test(v) ? { semanticVersion: v } : {}),
    informationUri: 'https://github.com/OP-TED/eForms-SDK',
  }));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver, ...(extensions.length ? { extensions } : {}) },
        invocations: [
          {
            executionSuccessful: notifications.length === 0,
            ...(notifications.length ? { toolExecutionNotifications: notifications } : {}),
          },
        ],
        artifacts,
        // SARIF's default columnKind is utf16CodeUnits: the same columns LSP counts, one-based here.
        columnKind: 'utf16CodeUnits',
        results,
        properties: { sdkVersions: [...sdkVersions].sort() },
      },
    ],
  };
}
