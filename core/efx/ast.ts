// The typed syntax tree of EFX 1 (eForms SDK 1.x `efx-grammar/Efx.g4`): template files, template lines,
// their label and expression blocks, and expressions. Nodes keep the offset where they start in the
// source so that errors found later (translation) can still point at the text. Data only: no logic.

/** Offset (0-based, UTF-16 units) where a node starts in the parsed text. */
export interface At {
  at: number;
}

/** The data types of EFX casts and iterator variables (`text:$x`, `context:$n`...). */
export type EfxCastType = 'text' | 'code' | 'number' | 'indicator' | 'date' | 'time' | 'measure' | 'context';

export type Expr =
  | StringLiteral
  | NumberLiteral
  | BooleanLiteral
  | DateLiteral
  | TimeLiteral
  | DurationLiteral
  | ListExpr
  | CodelistRef
  | VariableRef
  | FieldRef
  | AttributeRef
  | NodeRef
  | ParenExpr
  | ArithmeticExpr
  | ComparisonExpr
  | LogicalExpr
  | InListExpr
  | LikeExpr
  | EmptinessExpr
  | PresenceExpr
  | UniqueExpr
  | IfExpr
  | ForExpr
  | QuantifiedExpr
  | CastExpr
  | CallExpr;

/** `'abc'`, `"abc"` (value without quotes, EFX escapes kept) or a UUID `{…}` (stringLiteral). */
export interface StringLiteral extends At {
  kind: 'string';
  quote: "'" | '"' | '{';
  value: string;
}
/** INTEGER | DECIMAL, as written (`-3`, `3.14`). */
export interface NumberLiteral extends At {
  kind: 'number';
  text: string;
}
/** ALWAYS | TRUE | NEVER | FALSE. */
export interface BooleanLiteral extends At {
  kind: 'boolean';
  value: boolean;
}
/** DATE, e.g. `2020-01-01Z` or `2020-01-01+02:00`. */
export interface DateLiteral extends At {
  kind: 'date';
  text: string;
}
/** TIME, e.g. `12:00:00Z`. */
export interface TimeLiteral extends At {
  kind: 'time';
  text: string;
}
/** DayTimeDurationLiteral (`P3D`, `P2W`) or YearMonthDurationLiteral (`P1Y`, `-P3M`). */
export interface DurationLiteral extends At {
  kind: 'duration';
  text: string;
  family: 'dayTime' | 'yearMonth';
}
/** `(a, b, c)`: stringList, numericList, ... (a list of one item is a ParenExpr). */
export interface ListExpr extends At {
  kind: 'list';
  items: Expr[];
}
/** `(accessibility)`: codelistReference. */
export interface CodelistRef extends At {
  kind: 'codelist';
  id: string;
}
/** `$name`: variableReference. */
export interface VariableRef extends At {
  kind: 'variable';
  name: string;
}

/** A context given before `::` in front of a field reference (contextVariableSpecifier, ...). */
export type ContextSpecifier =
  | ({ kind: 'variable'; name: string } & At)
  | { kind: 'node'; ref: NodeRef }
  | { kind: 'field'; ref: FieldRef };

/**
 * fieldReference: `notice(…)/`? `$v::`? `ND-x::`? `BT-y::`? (`axis::`)? `/`? FieldId `[predicate]`?
 * `contexts` lists the `::` overrides outermost first.
 */
export interface FieldRef extends At {
  kind: 'field';
  id: string;
  absolute: boolean;
  axis?: string;
  predicate?: Expr;
  contexts: ContextSpecifier[];
  notice?: Expr;
}
/** attributeReference: `BT-x/@name`. */
export interface AttributeRef extends At {
  kind: 'attribute';
  field: FieldRef;
  name: string;
}
/** nodeReference / nodeContext: `ND-x[predicate]`, `/ND-x`. Only a context, never a value. */
export interface NodeRef extends At {
  kind: 'node';
  id: string;
  absolute: boolean;
  predicate?: Expr;
}
/** `( expression )`. */
export interface ParenExpr extends At {
  kind: 'paren';
  expr: Expr;
}
/** multiplicationExpression, additionExpression (and their duration/date forms). */
export interface ArithmeticExpr extends At {
  kind: 'arithmetic';
  op: '+' | '-' | '*' | '/' | '%';
  left: Expr;
  right: Expr;
}
/** fieldValueComparison, stringComparison, numericComparison, ... */
export interface ComparisonExpr extends At {
  kind: 'comparison';
  op: '==' | '!=' | '<' | '<=' | '>' | '>=';
  left: Expr;
  right: Expr;
}
/** logicalAndCondition, logicalOrCondition. */
export interface LogicalExpr extends At {
  kind: 'logical';
  op: 'and' | 'or';
  left: Expr;
  right: Expr;
}
/** stringInListCondition and its siblings: `x not? in (…)`. */
export interface InListExpr extends At {
  kind: 'in';
  not: boolean;
  value: Expr;
  list: Expr;
}
/** likePatternCondition: `x not? like 'regex'` (pattern without quotes). */
export interface LikeExpr extends At {
  kind: 'like';
  not: boolean;
  value: Expr;
  pattern: StringLiteral;
}
/** emptinessCondition: `x is not? empty`. */
export interface EmptinessExpr extends At {
  kind: 'empty';
  not: boolean;
  value: Expr;
}
/** presenceCondition: `BT-x is not? present`. */
export interface PresenceExpr extends At {
  kind: 'present';
  not: boolean;
  ref: FieldRef | AttributeRef;
}
/** uniqueValueCondition: `BT-x is not? unique in /BT-x`. */
export interface UniqueExpr extends At {
  kind: 'unique';
  not: boolean;
  ref: FieldRef | AttributeRef;
  within: FieldRef;
}
/** conditional…Expression: `if c then a else b`. */
export interface IfExpr extends At {
  kind: 'if';
  condition: Expr;
  /** Not named `then`: an object with a `then` is taken for a promise by `await`. */
  whenTrue: Expr;
  whenFalse: Expr;
}
/** One `text:$x in source` of an iteratorList. */
export interface Iterator extends At {
  type: EfxCastType;
  variable: string;
  source: Expr;
}
/** …SequenceFromIteration: `for text:$x in … return …`. */
export interface ForExpr extends At {
  kind: 'for';
  iterators: Iterator[];
  result: Expr;
}
/** quantifiedExpression: `every|some … satisfies …`. */
export interface QuantifiedExpr extends At {
  kind: 'quantified';
  quantifier: 'every' | 'some';
  iterators: Iterator[];
  condition: Expr;
}
/** …CastExpression / …TypeCastFieldReference: `number:BT-x`. */
export interface CastExpr extends At {
  kind: 'cast';
  type: EfxCastType;
  expr: Expr;
}
/** The EFX 1 functions (booleanFunction, numericFunction, stringFunction, dateFunction, …). */
export type EfxFunctionName =
  | 'not'
  | 'contains'
  | 'starts-with'
  | 'ends-with'
  | 'sequence-equal'
  | 'count'
  | 'number'
  | 'sum'
  | 'string-length'
  | 'substring'
  | 'string'
  | 'concat'
  | 'format-number'
  | 'date'
  | 'add-measure'
  | 'subtract-measure'
  | 'time'
  | 'day-time-duration'
  | 'year-month-duration'
  | 'distinct-values'
  | 'value-union'
  | 'value-intersect'
  | 'value-except';
export interface CallExpr extends At {
  kind: 'call';
  name: EfxFunctionName;
  args: Expr[];
}

/** singleExpression: `{ND-x, text:$p} ${expression}`. */
export interface SingleExpression extends At {
  kind: 'single-expression';
  context: { kind: 'field' | 'node'; id: string } & At;
  parameters: { type: EfxCastType; name: string }[];
  expression: Expr;
}

// Templates ---------------------------------------------------------------------------------------

/** contextDeclarationBlock: `{BT-x[pred]}` or `{ND-x[pred]}`. */
export type ContextDeclaration = FieldRef | NodeRef;

/** A `#{…}` or `$…` part that is either a word written in place or a `${expression}` block. */
export type LabelPart = ({ kind: 'text'; text: string } & At) | ({ kind: 'expression'; expr: Expr } & At);

/** labelBlock, by form. */
export type LabelBlock =
  /** `#{assetType|labelType|assetId}` (standardLabelReference). */
  | ({ form: 'standard'; assetType: LabelPart; labelType: LabelPart; assetId: LabelPart } & At)
  /** `#{name|BT-01}` (shorthandBtLabelReference). */
  | ({ form: 'bt'; labelType: LabelPart; btId: string } & At)
  /** `#{name|BT-01-notice}` (shorthandFieldLabelReference). */
  | ({ form: 'field'; labelType: LabelPart; fieldId: string } & At)
  /** `#{BT-01-notice}`: the label of the field's value (shorthandIndirectLabelReference). */
  | ({ form: 'field-value'; fieldId: string } & At)
  /** `#{name}`: a label of the context field or node (shorthandLabelReferenceFromContext). */
  | ({ form: 'context'; labelType: string } & At)
  /** `#value`: the label of the context field's value (…FromContextField). */
  | ({ form: 'context-value' } & At);

/** templateFragment parts, in order. Text keeps inner whitespace; the line's outer whitespace is cut. */
export type TemplateFragment =
  | ({ kind: 'text'; text: string } & At)
  | ({ kind: 'label'; label: LabelBlock } & At)
  | ({ kind: 'expression'; expr: Expr } & At)
  /** `$value`: the value of the context field (shorthandFieldValueReferenceFromContextField). */
  | ({ kind: 'context-value' } & At);

/** templateLine. */
export interface TemplateLine extends At {
  /** 1-based line number in the file. */
  line: number;
  /** Indentation as written and the nesting level it gives (0 for a top line). */
  indent: { kind: 'none' | 'tabs' | 'spaces'; width: number };
  level: number;
  /** The explicit OutlineNumber, when written. */
  outlineNumber?: number;
  context: ContextDeclaration;
  template: TemplateFragment[];
  /** The lines indented under this one. */
  children: TemplateLine[];
}

/** templateFile: every line in file order (`lines`) and the same lines as a tree (`roots`). */
export interface TemplateFile {
  file?: string;
  lines: TemplateLine[];
  roots: TemplateLine[];
}
