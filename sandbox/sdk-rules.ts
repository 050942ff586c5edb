// The official eForms SDK rules for the CVS emulation: with an SDK (eforms sandbox --sdk-dir DIR, a
// folder of releases, or releases in the download cache) the sandbox answers every rule as the real
// service does, each notice with the newest patch of the MAJOR.MINOR it declares (or of the
// eFormsSdkVersion asked for); the log says once per release which versions it answers. A notice
// whose SDK version is not available falls back to the emulation's own rules, said once per version
// in the log. The eNotices2 emulation judges submissions by the same rules (officialVerdict). Never
// downloads anything. The sandbox never imports client or server code.

import { availableSdkReleases, SdkError, type SdkSources } from '../core/sdk';
import { parseSvrl, severityOf } from '../core/svrl';
import { LocalSdkValidator, prepareNotice, requestedSdkVersion } from '../core/validation';
import type { SandboxContext } from './context';

export interface SandboxSdk {
  rules: NonNullable<SandboxContext['sdkRules']>;
  /** The releases found, newest first (for the startup log). */
  versions: string[];
}

/** The SDK rules over `sources`, or undefined when no release is there. */
export function sandboxSdkRules(
  sources: Pick<SdkSources, 'path' | 'cacheRoot'>,
  ruleCacheDir: string | undefined,
  log: (line: string) => void,
): SandboxSdk | undefined {
  const versions = availableSdkReleases(sources).map((r) => r.version);
  if (versions.length === 0) return undefined;
  const validator = new LocalSdkValidator({ sources, ruleCacheDir });
  const warned = new Set<string>();
  const announced = new Set<string>();
  const rules: SandboxSdk['rules'] = async (notice, o) => {
    const text = new TextDecoder('utf-8').decode(notice).replace(/^\uFEFF/, '');
    const n = prepareNotice(text, notice);
    const pin = o.sdkVersion?.trim() ?? '';
    try {
      const r = await validator.validate({
        index: n.index,
        bytes: n.bytes,
        language: o.language,
        mode: o.mode,
        ...requestedSdkVersion(n.index, pin),
        timeoutMs: 60_000,
      });
      const wanted = requestedSdkVersion(n.index, pin).sdkVersion.replace(/^eforms-sdk-/, '');
      if (r.sdkVersion && !announced.has(`${r.sdkVersion} ${wanted}`)) {
        announced.add(`${r.sdkVersion} ${wanted}`);
        log(
          `CVS: eForms SDK ${r.sdkVersion} rules answer ${wanted ? `notices of eforms-sdk-${wanted}` : 'notices that declare no version'}.`,
        );
      }
      if (r.notEvaluated.length > 0)
        log(
          `CVS: ${r.notEvaluated.length} rules of eForms SDK ${r.sdkVersion} not evaluated: ${r.notEvaluated
            .slice(0, 10)
            .map((x) => x.ruleId)
            .join(', ')}`,
        );
      return r.svrl;
    } catch (err) {
      const why = err instanceof SdkError ? err.message : String(err);
      if (!warned.has(why)) log(`CVS: the sandbox's own rules answer this notice: ${why}`);
      warned.add(why);
      return undefined;
    }
  };
  return { rules, versions };
}

/**
 * The official verdict on a notice for the eNotices2 emulation's submissions, when the sandbox has an
 * SDK: the report, and its errors and warnings counted as the CVS client counts them (core/svrl's
 * severity of each failed assertion). Undefined without an SDK or a release for the notice: the
 * caller keeps the sandbox's own verdict.
 */
export async function officialVerdict(
  ctx: Pick<SandboxContext, 'sdkRules'>,
  notice: Buffer,
  mode: 'static' | 'dynamic',
): Promise<{ svrl: string; errors: number; warnings: number } | undefined> {
  const svrl = await ctx.sdkRules?.(notice, { language: 'en', mode });
  if (!svrl) return undefined;
  const failed = parseSvrl(svrl).assertions.filter((a) => a.kind === 'failed-assert');
  const count = (s: string) => failed.filter((a) => severityOf(a.role) === s).length;
  return { svrl, errors: count('error'), warnings: count('warning') };
}
