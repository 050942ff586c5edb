// The EFX room: EFX 1, the expression and template language of the eForms SDK 1.x view templates
// (`view-templates/*.efx`, `summary.efx`). It holds a hand-written parser that follows the SDK's
// Efx.g4/EfxLexer.g4 (parser.ts, lexer.ts, typed tree in ast.ts) and a translator from EFX to XPath 2.0
// text given the SDK's fields.json (symbols.ts, translate.ts; location paths are combined by core/xpath).
// It must never do I/O (callers read the .efx and fields.json), never generate code from user data,
// never import from core/schematron (it returns XPath as text, combining paths with core/xpath), never
// touch vscode.
// This file is the room's only entry: import from 'core/efx', not from its files.

export type {
  AttributeRef,
  CallExpr,
  ContextDeclaration,
  ContextSpecifier,
  EfxCastType,
  EfxFunctionName,
  Expr,
  FieldRef,
  Iterator,
  LabelBlock,
  LabelPart,
  NodeRef,
  SingleExpression,
  TemplateFile,
  TemplateFragment,
  TemplateLine,
} from './ast';
export {
  type EfxSyntaxCode,
  EfxSyntaxError,
  type EfxTranslationCode,
  EfxTranslationError,
} from './errors';
export { parseEfxExpression, parseEfxSingleExpression, parseEfxTemplate } from './parser';
export { type EfxField, type EfxNode, type EfxSymbols, symbolsFromFieldsJson } from './symbols';
export {
  type EfxTemplateIssue,
  EfxTranslator,
  type EfxValueType,
  type TranslatedExpression,
  type TranslatedLabel,
  type TranslatedLine,
  type TranslatedPart,
  type TranslatedTemplate,
  type TranslateOptions,
} from './translate';
