// Compiles one phase of the SDK rules and runs it over notices. A phase is prepared (schema read, every
// expression parsed) once per SDK folder, version, mode and phase, kept in memory and, with a cache
// dir, on disk; closures are then built from the prepared form. A run follows Schematron: for each
// active pattern, each node is handled by the first rule whose context matches it, in document order.
// Expressions outside the supported subset are named in `notEvaluated`, never skipped silently.
// The layout of a release's rules (which phase selects a subtype: none, `16` or `eforms-16`) is read from
// its files by `ruleLayout`, once per file version, and is part of the disk cache's key.
// No `vscode` import here.

import { statSync } from 'node:fs';
import { indexXml, type XmlIndex } from '../notice';
import type { SvrlAssertion } from '../svrl';
import {
  type Ast,
  type Compiled,
  compile,
  ebv,
  nodeRef,
  parseDate,
  parseDateTime,
  parseXPath,
  Runtime,
  type Scope,
  XDocument,
  XNode,
  XPathDynamicError,
  XPathSyntaxError,
  XPathUnsupportedError,
} from '../xpath';
import { loadMessages, locationOf, messageFor, writeSvrl } from './report';
import { readPrepared, writePrepared } from './rule-cache';
import type { CompiledRuleSet, EvaluateOptions, RuleReport, RuleSetKey } from './rule-set';
import { RuleSetError } from './rule-set';
import {
  layoutOfPhases,
  type RuleLayout,
  readRuleLayout,
  readSchematron,
  type SchAssert,
  type SchDiagnostic,
  SchematronReadError,
  type SchPhase,
  schematronPath,
} from './schema';

/** An expression parsed, or why it could not be. */
export type Parsed = { ast: Ast } | { error: string };

/** A phase ready to compile: the schema's content and every expression parsed. JSON-serialisable. */
export interface PreparedPhase {
  schema: SchPhase;
  /** Parsed expressions, by their text. */
  parsed: Record<string, Parsed>;
}

function parseAll(schema: SchPhase): PreparedPhase {
  const ns = new Map(schema.namespaces);
  const parsed: Record<string, Parsed> = {};
  const add = (src: string, asContext = false): void => {
    const key = asContext ? `context:${src}` : src;
    if (key in parsed) return;
    try {
      // A pattern that is not absolute matches nodes anywhere, as `//pattern` selects them.
      const text = asContext && !src.trimStart().startsWith('/') ? `//${src.trim()}` : src;
      parsed[key] = { ast: parseXPath(text, ns) };
    } catch (e) {
      if (!(e instanceof XPathSyntaxError)) throw e;
      parsed[key] = { error: `cannot parse: ${e.message}` };
    }
  };
  for (const l of schema.lets) add(l.value);
  for (const p of schema.patterns) {
    for (const l of p.lets) add(l.value);
    for (const r of p.rules) {
      add(r.context, true);
      for (const l of r.lets) add(l.value);
      for (const a of r.asserts) add(a.test);
    }
  }
  return { schema, parsed };
}

export function prepare(key: RuleSetKey): PreparedPhase {
  const schema = readSchematron(key.sdkDir, key.mode, key.phase);
  // Only the diagnostics the phase's asserts name travel with it.
  const used = new Set<string>();
  for (const p of schema.patterns)
    for (const r of p.rules) for (const a of r.asserts) for (const d of a.diagnostics) used.add(d);
  schema.diagnostics = schema.diagnostics.filter((d) => used.has(d.id));
  return parseAll(schema);
}

interface CAssert {
  def: SchAssert;
  fn?: Compiled;
  unsupported?: string;
  diags: SchDiagnostic[];
}

interface CRule {
  context: string;
  ctx?: Compiled;
  unsupported?: string;
  lets: { slot: number; fn: Compiled }[];
  asserts: CAssert[];
}

interface CPattern {
  id: string;
  rules: CRule[];
}

class RuleSet implements CompiledRuleSet {
  readonly layout: RuleLayout;
  readonly ruleCount: number;
  readonly assertCount: number;
  readonly #rt = new Runtime();
  readonly #patterns: CPattern[] = [];
  readonly #prefixes = new Map<string, string>();
  #stamp = 0;
  /** Rules and asserts that cannot be compiled: the same for every notice. */
  readonly #staticNotEvaluated: { ruleId: string; reason: string }[] = [];

  constructor(
    readonly key: RuleSetKey,
    readonly source: 'sdk' | 'cache',
    private readonly prepared: PreparedPhase,
  ) {
    const { schema, parsed } = prepared;
    this.layout = layoutOfPhases(schema.phases);
    for (const [prefix, uri] of schema.namespaces)
      if (!this.#prefixes.has(uri)) this.#prefixes.set(uri, prefix);
    const rt = this.#rt;
    const globals = new Map<string, number>();
    const scopeOf = (): Scope => ({ globals, locals: new Map(), nextSlot: { n: 0 } });
    // The same test text recurs across rules (`count(cbc:ID) > 0`); without rule-level variables in
    // scope its closure is the same, so it is built once.
    const shared = new Map<string, Compiled | string>();
    const build = (src: string, scope: Scope, asContext = false): Compiled | string => {
      const k = asContext ? `context:${src}` : src;
      const reusable = scope.locals.size === 0;
      const hit = reusable ? shared.get(k) : undefined;
      if (hit !== undefined) return hit;
      const p = parsed[k];
      if (!p) return 'not prepared';
      let out: Compiled | string;
      if ('error' in p) out = p.error;
      else {
        try {
          out = compile(p.ast, rt, scope);
        } catch (e) {
          // A tree that cannot compile (a damaged cache entry) is "not evaluated", never a crash.
          out =
            e instanceof XPathUnsupportedError
              ? e.message
              : `the expression tree is malformed (${String((e as Error)?.message ?? e).slice(0, 200)})`;
        }
        // Nor is a tree that compiles to nothing ever skipped silently.
        if (typeof out !== 'function' && typeof out !== 'string') out = 'the expression tree is malformed';
      }
      if (reusable) shared.set(k, out);
      return out;
    };
    const broken =
      (name: string, why: string): Compiled =>
      () => {
        throw new XPathUnsupportedError(`$${name}: ${why}`);
      };
    // Schema and pattern lets are global (the Schematron skeleton makes them top-level variables).
    const allLets = [...schema.lets, ...schema.patterns.flatMap((p) => p.lets)];
    for (const l of allLets) {
      globals.set(l.name, rt.globalFns.length);
      rt.globalFns.push(broken(l.name, 'not compiled yet'));
    }
    for (const l of allLets) {
      const fn = build(l.value, scopeOf());
      rt.globalFns[globals.get(l.name) as number] = typeof fn === 'string' ? broken(l.name, fn) : fn;
    }
    const diagById = new Map(schema.diagnostics.map((d) => [d.id, d]));
    let rules = 0;
    let asserts = 0;
    for (const p of schema.patterns) {
      const cp: CPattern = { id: p.id, rules: [] };
      for (const r of p.rules) {
        rules++;
        const scope = scopeOf();
        const ctx = build(r.context, scope, true);
        const lets: { slot: number; fn: Compiled }[] = [];
        let unsupported = typeof ctx === 'string' ? ctx : undefined;
        for (const l of r.lets) {
          const fn = build(l.value, scope);
          if (typeof fn === 'string') unsupported ??= `$${l.name}: ${fn}`;
          else {
            const slot = scope.nextSlot.n++;
            scope.locals.set(l.name, slot);
            lets.push({ slot, fn });
          }
        }
        const cr: CRule = { context: r.context, lets, asserts: [] };
        if (typeof ctx !== 'string') cr.ctx = ctx;
        if (unsupported) cr.unsupported = unsupported;
        for (const a of r.asserts) {
          asserts++;
          const fn = build(a.test, scope);
          const diags = a.diagnostics
            .map((d) => diagById.get(d))
            .filter((d): d is SchDiagnostic => d !== undefined);
          const ca: CAssert = { def: a, diags };
          if (typeof fn === 'string') {
            ca.unsupported = fn;
            this.#staticNotEvaluated.push({ ruleId: a.id, reason: fn });
          } else ca.fn = fn;
          cr.asserts.push(ca);
        }
        if (cr.unsupported) {
          for (const a of r.asserts)
            this.#staticNotEvaluated.push({ ruleId: a.id, reason: `rule context: ${cr.unsupported}` });
        }
        cp.rules.push(cr);
      }
      this.#patterns.push(cp);
    }
    this.ruleCount = rules;
    this.assertCount = asserts;
  }

  evaluate(notice: string | XmlIndex, opts: EvaluateOptions = {}): RuleReport {
    const index =
      typeof notice === 'string'
        ? indexXml(notice.charCodeAt(0) === 0xfeff ? notice.slice(1) : notice)
        : notice;
    const doc = new XDocument(index);
    const rt = this.#rt;
    // current-dateTime() is `now`; current-date() is `today`, else the date of `now` in its time zone.
    const nowText = opts.now ?? (opts.today === undefined ? new Date().toISOString() : undefined);
    const now = nowText === undefined ? undefined : parseDateTime(nowText);
    const nowZone = /(Z|[+-]\d{2}:\d{2})\s*$/.exec(nowText ?? '')?.[1] ?? '';
    const today = opts.today ?? `${nowText?.trim().slice(0, 10)}${nowZone}`;
    rt.reset(doc, parseDate(/^\d{4}-\d{2}-\d{2}$/.test(today) ? `${today}Z` : today), now);
    const messages = loadMessages(this.key.sdkDir, opts.language ?? 'en');
    const notEvaluated = [...this.#staticNotEvaluated];
    const failures: SvrlAssertion[] = [];
    const perPattern: { id: string; failures: SvrlAssertion[] }[] = [];
    let cancelled = false;
    let evaluated = 0;
    const docCtx = { item: doc.node, pos: 1, size: 1 };
    for (const p of this.#patterns) {
      if (opts.isCancelled?.()) {
        cancelled = true;
        break;
      }
      const fired: { node: XNode; rule: CRule }[] = [];
      // A node is claimed by the first rule of the pattern that selects it: marked with this stamp.
      const stamp = ++this.#stamp;
      for (const r of p.rules) {
        if (!r.ctx || r.unsupported) continue;
        let nodes: unknown[];
        try {
          nodes = r.ctx(docCtx);
        } catch (e) {
          for (const a of r.asserts)
            notEvaluated.push({ ruleId: a.def.id, reason: `rule context: ${describe(e)}` });
          continue;
        }
        for (const n of nodes as XNode[]) {
          if (!(n instanceof XNode) || n.mark === stamp) continue;
          n.mark = stamp;
          fired.push({ node: n, rule: r });
        }
      }
      fired.sort((a, b) => a.node.order - b.node.order);
      const pf: SvrlAssertion[] = [];
      let sinceCheck = 0;
      for (const { node, rule } of fired) {
        // A large notice spends most of a run inside one pattern: look at cancellation there too.
        if (++sinceCheck === 256) {
          sinceCheck = 0;
          if (opts.isCancelled?.()) {
            cancelled = true;
            break;
          }
        }
        const ctx = { item: node, pos: 1, size: 1 };
        let letsFailed: string | undefined;
        for (const l of rule.lets) {
          try {
            rt.frame[l.slot] = l.fn(ctx);
          } catch (e) {
            letsFailed = describe(e);
            break;
          }
        }
        for (const a of rule.asserts) {
          if (!a.fn) continue;
          if (letsFailed) {
            notEvaluated.push({ ruleId: a.def.id, reason: letsFailed });
            continue;
          }
          evaluated++;
          let ok: boolean;
          try {
            ok = ebv(a.fn(ctx));
          } catch (e) {
            notEvaluated.push({
              ruleId: a.def.id,
              reason: `${describe(e)} at ${locationOf(node, this.#prefixes)}`,
            });
            continue;
          }
          if (ok === (a.def.kind === 'assert')) continue;
          const f: SvrlAssertion = {
            kind: a.def.kind === 'assert' ? 'failed-assert' : 'successful-report',
            id: a.def.id,
            location: locationOf(node, this.#prefixes),
            role: a.def.role,
            test: a.def.test,
            text: messageFor(a.def, a.diags, messages),
            diagnosticReferences: a.diags.map((d) => ({ diagnostic: d.id, see: d.see, path: d.text })),
          };
          if (a.def.flag !== undefined) f.flag = a.def.flag;
          // The node itself travels with the failure: the mapping places it without reading location back.
          const ref = nodeRef(node);
          if (ref) f.node = ref;
          pf.push(f);
          failures.push(f);
        }
      }
      perPattern.push({ id: p.id, failures: pf });
      if (cancelled) break;
    }
    const { schema } = this.prepared;
    const svrl = writeSvrl(
      {
        title: schema.title,
        phase: this.key.phase,
        namespaces: schema.namespaces,
        sdkVersion: this.key.sdkVersion,
        mode: this.key.mode,
      },
      perPattern,
      notEvaluated,
    );
    return {
      svrl,
      failures,
      namespaces: schema.namespaces,
      notEvaluated,
      sdkVersion: this.key.sdkVersion,
      phase: this.key.phase,
      mode: this.key.mode,
      cancelled,
      assertsEvaluated: evaluated,
    };
  }
}

function describe(e: unknown): string {
  if (e instanceof XPathDynamicError || e instanceof XPathUnsupportedError) return e.message;
  return `internal error: ${(e as Error)?.message ?? String(e)}`;
}

const memory = new Map<string, Promise<CompiledRuleSet>>();

function toRuleSetError(e: unknown, key: RuleSetKey): never {
  if (e instanceof SchematronReadError) {
    if (e.kind === 'unknown-phase')
      throw new RuleSetError('unknown-phase', { phase: key.phase, phases: e.phases, path: e.path });
    if (e.kind === 'missing') throw new RuleSetError('no-schematron', { path: e.path, detail: e.message });
    if (e.kind === 'missing-include')
      throw new RuleSetError('missing-include', { path: e.path, file: e.file, detail: e.message });
    throw new RuleSetError('unreadable', { path: e.path, detail: e.message });
  }
  throw e;
}

const layouts = new Map<string, { stamp: string; layout: RuleLayout; phases: string[] }>();

/**
 * The layout of a release's rules for a mode (see RuleLayout), read once from its
 * `complete-validation.sch` and kept while that file is unchanged. Throws a RuleSetError when the
 * file is missing or is not Schematron.
 */
export function ruleLayout(
  sdkDir: string,
  mode: 'static' | 'dynamic',
): { layout: RuleLayout; phases: string[] } {
  const path = schematronPath(sdkDir, mode);
  try {
    let stamp = '';
    try {
      const s = statSync(path);
      stamp = `${s.size}:${s.mtimeMs}`;
    } catch {
      // readRuleLayout words the missing file
    }
    const hit = layouts.get(path);
    if (hit && stamp && hit.stamp === stamp) return { layout: hit.layout, phases: [...hit.phases] };
    const read = readRuleLayout(sdkDir, mode);
    layouts.set(path, { stamp, ...read });
    return { layout: read.layout, phases: [...read.phases] };
  } catch (e) {
    return toRuleSetError(e, { sdkDir, sdkVersion: '', phase: '', mode });
  }
}

/** A rule set from a prepared phase as the cache holds it (tests of damaged entries). */
export function compilePrepared(key: RuleSetKey, prepared: PreparedPhase): CompiledRuleSet {
  return new RuleSet(key, 'cache', prepared);
}

/** Builds the rule set synchronously: from the disk cache when it holds this phase, else from the SDK. */
export function loadRuleSetSync(key: RuleSetKey, opts: { cacheDir?: string } = {}): CompiledRuleSet {
  try {
    // The layout is part of the cache key: rules prepared for another layout (another release in the
    // same place, an upgraded folder) are never read back.
    const layout = opts.cacheDir ? ruleLayout(key.sdkDir, key.mode).layout : undefined;
    const cached = opts.cacheDir && layout ? readPrepared(opts.cacheDir, key, layout) : undefined;
    if (cached && layoutOfPhases(cached.schema.phases) === layout) return new RuleSet(key, 'cache', cached);
    const prepared = prepare(key);
    if (opts.cacheDir && layout) writePrepared(opts.cacheDir, key, layout, prepared);
    return new RuleSet(key, 'sdk', prepared);
  } catch (e) {
    return toRuleSetError(e, key);
  }
}

export function loadCompiledRuleSet(key: RuleSetKey, opts: { cacheDir?: string }): Promise<CompiledRuleSet> {
  const id = JSON.stringify([key.sdkDir, key.sdkVersion, key.phase, key.mode, opts.cacheDir ?? '']);
  let hit = memory.get(id);
  if (!hit) {
    hit = new Promise<CompiledRuleSet>((resolve) => resolve(loadRuleSetSync(key, opts)));
    memory.set(id, hit);
    // A failure is not kept: the user may fix the folder and try again.
    hit.catch(() => memory.delete(id));
  }
  return hit;
}

/** Forget compiled phases (tests and benchmarks that measure a cold start). */
export function clearRuleSetMemory(): void {
  memory.clear();
  layouts.clear();
}
