// The findings of the SDK's rules on a notice, as a batch places them (core/validation's LocalSdkValidator
// and placeFindings), for the tests that compare what completion makes of them. No assertions here.

import type { Finding } from '../../core/findings';
import type { XmlIndex } from '../../core/notice';
import { indexXml } from '../../core/notice/xml-index';
import type { LocalSdkValidator } from '../../core/validation/local-validator';
import { placeFindings } from '../../core/validation/pipeline';

/** The notice's index and its findings, static rules, `current-date()` on 2024-06-01, in English. */
export async function sdkFindings(
  v: LocalSdkValidator,
  text: string,
): Promise<{ index: XmlIndex; findings: Finding[] }> {
  const index = indexXml(text);
  const r = await v.validate({
    index,
    bytes: new Uint8Array(0),
    language: 'en',
    mode: 'static',
    sdkVersion: '',
    pinned: false,
    timeoutMs: 0,
    today: '2024-06-01',
    svrl: false,
  });
  return { index, findings: placeFindings(index, r, 'en') };
}
