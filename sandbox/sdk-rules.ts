// The official eForms SDK rules for the CVS emulation: with an SDK (eforms sandbox --sdk-dir DIR, a
// folder of releases, or releases in the download cache) the sandbox answers every rule as the real
// service does, each notice with the newest patch of the MAJOR.MINOR it declares (or of the
// eFormsSdkVersion asked for); the log says once per release which versions it answers. A notice
// whose SDK version is not available falls back to the emulation's own rules, said once per version
// in the log. The rules run in a worker thread (core/validation's WorkerPool), never on the HTTP
// thread: a slow notice holds only its own answer, and a run past the time budget (--time-budget) is
// stopped and answered with an error naming the budget. Log lines cut and escape what a caller sent,
// and what is remembered per reason is bounded. The eNotices2 emulation judges submissions by the same
// rules (officialVerdict). Never downloads anything. The sandbox never imports client or server code.

import { INPUT_LIMITS, readNoticeIdentity } from '../core/notice';
import { availableSdkReleases, formatBudget, SdkError, type SdkSources } from '../core/sdk';
import { parseSvrl, severityOf } from '../core/svrl';
import { clip, terminalLine } from '../core/text';
import {
  prepareNotice,
  RuleBudgetError,
  requestedSdkVersion,
  WorkerPool,
  WorkerValidator,
} from '../core/validation';
import type { SandboxContext } from './context';

export interface SandboxSdk {
  rules: NonNullable<SandboxContext['sdkRules']>;
  /** The releases found, newest first (for the startup log). */
  versions: string[];
  /** Stops the rules' worker (the sandbox is closing). */
  close(): Promise<void>;
}

/** Raised by the rules when a notice's run passed the budget: the CVS answers an error naming it. */
export class SandboxBudgetError extends Error {
  override name = 'SandboxBudgetError';
}

/** Distinct reasons remembered to log each once: beyond, every reason is logged (bounded state). */
const MAX_WARNED = 256;

/** Longest reason logged: a sentence of ours around values that are themselves cut. */
const MAX_REASON_CHARS = 400;

/** A value for one log line: on one line, control characters escaped, cut (`max`: the echo limit). */
export function logValue(v: string, max: number = INPUT_LIMITS.echoChars.max): string {
  return terminalLine(clip(v, max));
}

/** The SDK rules over `sources`, or undefined when no release is there. */
export function sandboxSdkRules(
  sources: Pick<SdkSources, 'path' | 'cacheRoot'>,
  ruleCacheDir: string | undefined,
  log: (line: string) => void,
  budgetMs: number = INPUT_LIMITS.ruleTimeBudgetMs.max,
  /** Test hook: told when a notice's rules start and end in the worker (the order of events). */
  onRun?: (event: 'start' | 'end') => void,
): SandboxSdk | undefined {
  const versions = availableSdkReleases(sources).map((r) => r.version);
  if (versions.length === 0) return undefined;
  // One worker and one spare: a stuck notice neither blocks the HTTP thread nor the next notice.
  const pool = new WorkerPool(1, undefined, 1);
  const validator = new WorkerValidator(pool, sources, ruleCacheDir, budgetMs);
  const warned = new Set<string>();
  const announced = new Set<string>();
  const rules: SandboxSdk['rules'] = async (notice, o) => {
    const text = new TextDecoder('utf-8').decode(notice).replace(/^\uFEFF/, '');
    const n = prepareNotice(text, notice);
    const pin = o.sdkVersion?.trim() ?? '';
    try {
      onRun?.('start');
      const r = await validator.validate({
        index: n.index,
        bytes: n.bytes,
        language: o.language,
        mode: o.mode,
        ...requestedSdkVersion(n.index, pin),
        timeoutMs: budgetMs,
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
          `CVS: ${r.notEvaluated.length} rules of eForms SDK ${logValue(r.sdkVersion)} not evaluated: ${r.notEvaluated
            .slice(0, 10)
            .map((x) => logValue(x.ruleId))
            .join(', ')}`,
        );
      return r.svrl;
    } catch (err) {
      if (err instanceof RuleBudgetError)
        throw new SandboxBudgetError(
          `The eForms SDK rules ran longer than the sandbox's time budget of ${formatBudget(err.budgetMs)} on ${noticeName(notice)} and were stopped (eforms sandbox --time-budget SECONDS sets it).`,
        );
      // The reason may hold what the caller sent (a SubTypeCode, a version): cut and escaped, and
      // remembered only up to MAX_WARNED reasons.
      const why = logValue(err instanceof SdkError ? err.message : String(err), MAX_REASON_CHARS);
      if (!warned.has(why)) {
        log(`CVS: the sandbox's own rules answer this notice: ${why}`);
        if (warned.size < MAX_WARNED) warned.add(why);
      }
      return undefined;
    } finally {
      onRun?.('end');
    }
  };
  return { rules, versions, close: () => pool.close() };
}

/** `notice 0f3c…-01` (its cbc:ID, cut), or `this notice`. */
function noticeName(notice: Uint8Array): string {
  try {
    const r = readNoticeIdentity(notice);
    const id = r.ok ? r.identity.noticeId : '';
    return id ? `notice ${logValue(id)}` : 'this notice';
  } catch {
    return 'this notice';
  }
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
