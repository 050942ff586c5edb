// Shared by the eNotices2 sandbox tests: a sandbox on a free port with a controllable clock, known keys,
// and fresh notices made from the project's own valid-cn.xml fixture (new notice id per call).

import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EnoticesClient, type EnoticesClientOptions } from '../../core/services/enotices-client';
import { type RunningSandbox, startSandbox } from '../../sandbox/server';
import { PROJECT_ROOT } from '../support/shared-data';

export const KEY = 'test-key-one';
export const OTHER_KEY = 'test-key-two';
export const NO_ACCOUNT_KEY = 'noaccount-test';
export const WRONG_KEY = 'not-a-key';

export const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures');
export const VALID_CN = readFileSync(join(FIXTURES, 'notices', 'valid-cn.xml'), 'utf8');
export const INVALID_CN = readFileSync(join(FIXTURES, 'notices', 'invalid-cn.xml'), 'utf8');
export const LEGACY_F02 = readFileSync(join(FIXTURES, 'legacy', 'ted-export-f02.xml'), 'utf8');

export interface TestSandbox {
  sb: RunningSandbox;
  base: string;
  dataDir: string;
  /** The sandbox clock (ms); tests move it. */
  clock: { t: number };
  client(o?: Partial<EnoticesClientOptions>): EnoticesClient;
  close(): Promise<void>;
}

export async function startTestSandbox(
  dataDir?: string,
  t0 = Date.UTC(2025, 2, 3, 9, 0, 0),
): Promise<TestSandbox> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'enotices-test-'));
  const sb = await startSandbox({ port: 0, apiKeys: [KEY, OTHER_KEY], dataDir: dir });
  const clock = { t: t0 };
  sb.context.now = () => clock.t;
  const base = `${sb.origin}/esenders`;
  return {
    sb,
    base,
    dataDir: dir,
    clock,
    client: (o = {}) => new EnoticesClient({ baseUrl: base, apiKey: KEY, ...o }),
    close: () => sb.close(),
  };
}

/** valid-cn.xml (or `template`) with a new notice id, the given version and optionally another procedure. */
export function freshNotice(
  o: { noticeId?: string; versionId?: string; procedureId?: string; template?: string } = {},
): { xml: string; noticeId: string; businessId: string } {
  const noticeId = o.noticeId ?? randomUUID();
  const versionId = o.versionId ?? '01';
  let xml = (o.template ?? VALID_CN)
    .replace(/(<cbc:ID schemeName="notice-id">)[^<]*(<\/cbc:ID>)/, `$1${noticeId}$2`)
    .replace(/(<cbc:VersionID>)[^<]*(<\/cbc:VersionID>)/, `$1${versionId}$2`);
  if (o.procedureId !== undefined)
    xml = xml.replace(/(<cbc:ContractFolderID>)[^<]*(<\/cbc:ContractFolderID>)/, `$1${o.procedureId}$2`);
  return { xml, noticeId, businessId: `${noticeId}-${versionId}` };
}

export const META = { noticeAuthorEmail: 'buyer@example.org', noticeAuthorLocale: 'en' };

/** invalid-cn.xml (static CVS errors) with a new notice id and a procedure id, so eNotices2 stores it. */
export function invalidNotice(): { xml: string; noticeId: string; businessId: string } {
  return freshNotice({ template: INVALID_CN, procedureId: randomUUID() });
}
