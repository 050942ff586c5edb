// Starts a sandbox on a free loopback port for a test file and talks to it: JSON POSTs with or
// without an API key, fault switches, the folder of the project's test notices, and a strict SVRL
// reader built on saxes. Tests only; it never touches /work/shared and never leaves a server running
// after close().

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { type RunningSandbox, startSandbox } from '../../sandbox/server';
import { PROJECT_ROOT } from './shared-data';

/** The key every harness sandbox accepts. */
export const TEST_API_KEY = 'test-key-0123456789';

/** test/fixtures/notices in the source tree (fixtures are not copied to out/). */
export const NOTICE_FIXTURES_DIR = join(PROJECT_ROOT, 'test', 'fixtures', 'notices');

export function readNoticeFixture(name: string): Buffer {
  return readFileSync(join(NOTICE_FIXTURES_DIR, name));
}

export interface HttpAnswer {
  status: number;
  contentType: string;
  text: string;
  headers: Headers;
}

export interface SandboxHarness {
  sandbox: RunningSandbox;
  origin: string;
  /** POSTs `body` (JSON-encoded unless already a string) to `path` below the origin. */
  postJson(
    path: string,
    body: unknown,
    options?: { apiKey?: string | null; signal?: AbortSignal },
  ): Promise<HttpAnswer>;
  request(
    method: string,
    path: string,
    options?: { body?: string; apiKey?: string | null; signal?: AbortSignal },
  ): Promise<HttpAnswer>;
  /** POSTs a notice to the CVS emulation with the test key; extra fields go into InputNoticeValidation. */
  validate(notice: Buffer | string, fields?: Record<string, unknown>): Promise<HttpAnswer>;
  setFaults(on: string[], off?: string[]): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(options: { apiKeys?: string[] } = {}): Promise<SandboxHarness> {
  const sandbox = await startSandbox({ port: 0, apiKeys: options.apiKeys ?? [TEST_API_KEY] });
  const origin = sandbox.origin;

  async function request(
    method: string,
    path: string,
    opts: { body?: string; apiKey?: string | null; signal?: AbortSignal } = {},
  ): Promise<HttpAnswer> {
    const headers: Record<string, string> = {};
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const key = opts.apiKey === undefined ? TEST_API_KEY : opts.apiKey;
    if (key !== null) headers['x-api-key'] = key;
    const res = await fetch(`${origin}${path}`, { method, headers, body: opts.body, signal: opts.signal });
    return {
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      text: await res.text(),
      headers: res.headers,
    };
  }

  const harness: SandboxHarness = {
    sandbox,
    origin,
    request,
    postJson: (path, body, opts = {}) =>
      request('POST', path, { ...opts, body: typeof body === 'string' ? body : JSON.stringify(body) }),
    validate: (notice, fields = {}) =>
      harness.postJson('/cvs/v1/notices/validation', {
        notice: Buffer.from(notice).toString('base64'),
        ...fields,
      }),
    async setFaults(on, off = []) {
      const res = await fetch(`${origin}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ on, off }),
      });
      if (res.status !== 200) throw new Error(`setting faults failed: ${res.status}`);
      await res.text();
    },
    close: () => sandbox.close(),
  };
  return harness;
}

/** One `svrl:failed-assert` as a strict, namespace-aware XML parser reads it (independent of core/svrl.ts). */
export interface ParsedAssert {
  id: string;
  location: string;
  role: string;
  flag?: string;
  test: string;
  text: string;
  diagnostics: { diagnostic: string; see: string; text: string }[];
}

export interface ParsedSvrl {
  rootName: string;
  phase?: string;
  title?: string;
  namespaces: [string, string][];
  activePatterns: string[];
  firedRules: number;
  asserts: ParsedAssert[];
}

const SVRL_URI = 'http://purl.oclc.org/dsdl/svrl';

/** Parses an SVRL report with saxes; throws on anything that is not well-formed namespace-aware XML. */
export function parseSvrlStrict(xml: string): ParsedSvrl {
  const parser = new SaxesParser({ xmlns: true });
  const out: ParsedSvrl = { rootName: '', namespaces: [], activePatterns: [], firedRules: 0, asserts: [] };
  let current: ParsedAssert | undefined;
  let diag: { diagnostic: string; see: string; text: string } | undefined;
  let inText = false;
  let buffer = '';
  const attr = (node: SaxesTagNS, name: string): string | undefined => node.attributes[name]?.value;
  parser.on('opentag', (node) => {
    if (!out.rootName) {
      out.rootName = `{${node.uri}}${node.local}`;
      out.phase = attr(node, 'phase');
      out.title = attr(node, 'title');
      return;
    }
    if (node.uri !== SVRL_URI) return;
    if (node.local === 'ns-prefix-in-attribute-values')
      out.namespaces.push([attr(node, 'prefix') ?? '', attr(node, 'uri') ?? '']);
    else if (node.local === 'active-pattern') out.activePatterns.push(attr(node, 'id') ?? '');
    else if (node.local === 'fired-rule') out.firedRules++;
    else if (node.local === 'failed-assert') {
      current = {
        id: attr(node, 'id') ?? '',
        location: attr(node, 'location') ?? '',
        role: attr(node, 'role') ?? '',
        flag: attr(node, 'flag'),
        test: attr(node, 'test') ?? '',
        text: '',
        diagnostics: [],
      };
    } else if (node.local === 'diagnostic-reference') {
      diag = { diagnostic: attr(node, 'diagnostic') ?? '', see: attr(node, 'see') ?? '', text: '' };
    } else if (node.local === 'text') {
      inText = true;
      buffer = '';
    }
  });
  parser.on('text', (t) => {
    if (inText) buffer += t;
  });
  parser.on('closetag', (node) => {
    if (node.uri !== SVRL_URI) return;
    if (node.local === 'text') {
      inText = false;
      if (diag) diag.text = buffer.trim();
      else if (current) current.text = buffer.trim();
    } else if (node.local === 'diagnostic-reference' && diag) {
      current?.diagnostics.push(diag);
      diag = undefined;
    } else if (node.local === 'failed-assert' && current) {
      out.asserts.push(current);
      current = undefined;
    }
  });
  parser.write(xml).close();
  return out;
}
