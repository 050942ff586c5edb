// Runs a compiled phase over a notice (first version: the API only; the engine follows).
// No `vscode` import here.

import type { CompiledRuleSet, RuleSetKey } from './index';

export async function loadCompiledRuleSet(
  key: RuleSetKey,
  _opts: { cacheDir?: string },
): Promise<CompiledRuleSet> {
  return {
    key,
    ruleCount: 0,
    assertCount: 0,
    source: 'sdk',
    evaluate: () => ({
      svrl: '',
      failures: [],
      notEvaluated: [{ ruleId: '*', reason: 'engine not built yet' }],
      sdkVersion: key.sdkVersion,
      phase: key.phase,
      mode: key.mode,
      cancelled: false,
      assertsEvaluated: 0,
    }),
  };
}
