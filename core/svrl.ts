// Reading of SVRL (Schematron Validation Report Language) reports, as the Central Validation Service
// and the official eForms SDK rules produce them. Parsing only: placing the assertions on a notice is
// svrl-mapping.ts. No `vscode` import here.

export interface SvrlDiagnosticReference {
  /** `diagnostic` attribute (e.g. `ND-Company_BT-514-Organization-Company`). */
  diagnostic: string;
  /** `see` attribute (e.g. `field:BT-24-Lot`, `node:ND-Organizations`). */
  see: string;
  /** Trimmed text: a path relative to the assertion's location (e.g. `cac:TenderingProcess`). */
  path: string;
}

export interface SvrlAssertion {
  kind: 'failed-assert' | 'successful-report';
  id: string;
  location: string;
  /** As written (ERROR, WARN, INFO, or anything else). */
  role: string;
  flag?: string;
  test: string;
  /** Trimmed `svrl:text`: translated message, or a raw key such as `rule|text|BR-BT-00024-0178`. */
  text: string;
  diagnosticReferences: SvrlDiagnosticReference[];
}

export interface SvrlReport {
  /** prefix -> namespace URI, from `svrl:ns-prefix-in-attribute-values`. */
  namespaces: Map<string, string>;
  assertions: SvrlAssertion[];
  /** `phase` and `title` of `svrl:schematron-output`, when present. */
  phase?: string;
  title?: string;
}

/** Thrown when the text is not an SVRL report at all (not XML, or another root element). */
export class SvrlFormatError extends Error {}

export function parseSvrl(_text: string): SvrlReport {
  throw new Error('not implemented yet');
}
