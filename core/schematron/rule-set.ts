// The public shapes of a compiled phase of the SDK rules: its key, options, report and errors. Kept apart
// from index.ts so that the room's own modules never import their entry (no cycle). No I/O here.

import type { XmlIndex } from '../notice';
import type { SvrlAssertion } from '../svrl';
import type { Ast, Compiled, Runtime, XDocument, XNode } from '../xpath';
import type { RuleLayout, SchRule } from './schema';

export type { RuleLayout } from './schema';

/**
 * A rule the engine could not evaluate, never skipped silently: named in the report, counted, and
 * written as a comment of the SVRL. `cause` and the fields say why, for each front end to word.
 */
export interface NotEvaluated {
  ruleId: string;
  /**
   * - `unsupported`: its XPath is outside what the engine reads;
   * - `invalid-value`: a value of the notice is not of the type the rule reads it as (`value`, `type`);
   * - `error`: another error while it ran (`reason`);
   * - `no-phase`: no rule ran, as the notice names no subtype (`ruleId` is `*`).
   */
  cause: 'unsupported' | 'invalid-value' | 'error' | 'no-phase';
  /** The engine's account (an XPath error's code and message), for logs and the SVRL's comment. */
  reason: string;
  /** The SVRL location of the node an assert failed to run at. */
  location?: string;
  /** invalid-value: the value as the rule read it (cut to the echo limit), and the XSD type it is not. */
  value?: string;
  type?: string;
}

/**
 * The phase that selects a notice sub type's rules in a release of the given layout (see RuleLayout):
 * `eforms-phases`: `16` -> `eforms-16`; `subtype-phases`: `16`; `no-phases`: `#ALL` (every pattern, as
 * the reference runs such releases). The layout is the release's, read by `ruleLayout()`; without it,
 * the layout of SDK 1.11 onwards.
 */
export function phaseForSubType(subTypeCode: string, layout: RuleLayout = 'eforms-phases'): string {
  const code = subTypeCode.trim();
  return layout === 'no-phases' ? '#ALL' : layout === 'subtype-phases' ? code : `eforms-${code}`;
}

export interface RuleSetKey {
  /** The SDK release folder (it holds `schematrons/`). */
  sdkDir: string;
  sdkVersion: string;
  /** A phase id of the release, or `#ALL` for every pattern (see `phaseForSubType`). */
  phase: string;
  mode: 'static' | 'dynamic';
}

export interface EvaluateOptions {
  /**
   * The date `current-date()` returns, `YYYY-MM-DD`; the date of `now`, else today (UTC), when absent. A
   * date is enough for the rules of SDK 1.7 to 1.15: they call `current-date()` only.
   */
  today?: string;
  /**
   * The instant `current-dateTime()` and `current-time()` return (`2026-11-24T12:00:00Z`); absent: the
   * first instant of `today` when it is given, else now.
   */
  now?: string;
  /** Language of the messages (`en`, `fr`…); `en` when absent. */
  language?: string;
  /** Polled between patterns: when it answers true the run stops and the report says so. */
  isCancelled?: () => boolean;
  /** The incremental path's hook (incremental.ts); absent: every fired rule is evaluated. */
  incremental?: RunHook;
  /**
   * Evaluate every rule context, even one whose leading steps name an element the notice lacks (such a
   * context selects nothing, and is otherwise neither compiled nor run): the tests compare the two.
   */
  everyContext?: boolean;
  /**
   * false: the SVRL text is not written and the report's `svrl` is '' (a caller that reads only the
   * failures, such as the CLI's text, JSON and SARIF output). Absent: written.
   */
  svrl?: boolean;
  /**
   * Characters of the notice whose nodes the rules run over before going on to the next stretch (see
   * the engine's CHUNK_CHARS); the tests set a small one to compare with a run in one stretch.
   */
  chunkChars?: number;
}

/**
 * What the engine asks the incremental path during a run: whether a fired rule's results at a node can
 * be replayed from the last run (into the report's lists), and what each evaluated one gave.
 */
export interface RunHook {
  begin(run: {
    doc: XDocument;
    rt: Runtime;
    globals: ReadonlyMap<string, number>;
    prefixes: ReadonlyMap<string, string>;
    parsed(key: string): { ast: Ast } | { error: string };
  }): void;
  /** The nodes a rule's context selects: `context(docContext)`, or the same set found from the last run's. */
  contexts(pattern: number, rule: SchRule, context: Compiled, docContext: Parameters<Compiled>[0]): unknown[];
  /** The number of asserts the replayed results count, or -1: evaluate the rule at this node. */
  replay(
    pattern: number,
    rule: SchRule,
    node: XNode,
    patternFailures: SvrlAssertion[],
    notEvaluated: NotEvaluated[],
  ): number;
  /** After an evaluation: what it added to the lists from these lengths on, and the asserts it counted. */
  record(
    pattern: number,
    rule: SchRule,
    node: XNode,
    patternFailures: SvrlAssertion[],
    failuresFrom: number,
    notEvaluated: NotEvaluated[],
    notEvaluatedFrom: number,
    evaluated: number,
  ): void;
}

export interface RuleReport {
  /** The SVRL report, shaped like the CVS's. */
  svrl: string;
  /** Every failed assertion, as core/svrl reads them from a report, each with its node (`node`). */
  failures: SvrlAssertion[];
  /** The schema's prefix declarations, which the failures' diagnostic paths are written with. */
  namespaces: [string, string][];
  /** Rules that could not be evaluated (outside the compiled subset, no fallback), named and counted. */
  notEvaluated: NotEvaluated[];
  sdkVersion: string;
  phase: string;
  mode: 'static' | 'dynamic';
  /** True when `isCancelled` stopped the run: the report is then incomplete. */
  cancelled: boolean;
  /** Number of asserts evaluated (every fired rule's asserts). */
  assertsEvaluated: number;
}

export interface CompiledRuleSet {
  readonly key: RuleSetKey;
  /** The layout of the release's rules, read from its files when the set was loaded. */
  readonly layout: RuleLayout;
  /** Number of rules and asserts in the phase. */
  readonly ruleCount: number;
  readonly assertCount: number;
  /** Where the rules came from: parsed from the SDK folder, or read from the disk cache. */
  readonly source: 'sdk' | 'cache';
  evaluate(notice: string | XmlIndex, opts?: EvaluateOptions): RuleReport;
}

/** Why a rule set could not be loaded; each front end words it. */
export type RuleSetErrorKind = 'no-schematron' | 'missing-include' | 'unknown-phase' | 'unreadable';

export class RuleSetError extends Error {
  override name = 'RuleSetError';
  constructor(
    readonly kind: RuleSetErrorKind,
    /** `path`: the schematron file; `file`: for `missing-include`, the file it names that is absent. */
    readonly fields: { path?: string; file?: string; phase?: string; phases?: string[]; detail?: string },
  ) {
    super(
      kind === 'no-schematron'
        ? `no schematron rules at ${fields.path}`
        : kind === 'missing-include'
          ? `the SDK rules at ${fields.path} include ${fields.file}, which is missing`
          : kind === 'unknown-phase'
            ? `the SDK rules have no phase ${fields.phase}`
            : `cannot read the SDK rules at ${fields.path}: ${fields.detail}`,
    );
  }
}
