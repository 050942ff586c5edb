// The one validation pipeline (README of the subsystem). A notice goes index → SDK version → a
// `Validator` (the CVS client or the local SDK engine) → SVRL parsed → findings placed on the text.
// The language server, the CLI and the submit flow all call it; none keeps a copy of the chain.
//   validator.ts      the Validator interface, its input and its report
//   pipeline.ts       prepareNotice, requestFor, validateNotice (the chain itself)
//   cvs-validator.ts  the CVS as a Validator
//   local-validator.ts the SDK's own rules, run in this process, as a Validator
//   merge.ts          findings from both engines, one per rule and node
//   policy.ts         preflight verdicts, what a failure means (and its back-off), engines and pipelines
//                     from the settings, and validateOnce for the callers that do not schedule
// No `vscode` import here, and no timers or scheduling: callers decide when to validate.

export * from './cvs-validator';
export { CUSTOMIZATION_ID, localFindings } from './local-checks';
export * from './local-validator';
export * from './merge';
export * from './pipeline';
export * from './policy';
export { rejectionFinding } from './service-rejection';
export * from './validator';
export * from './worker-pool';
