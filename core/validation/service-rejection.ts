// A notice the validation service refused as a whole (400 with an explanation of what the XML is
// missing or breaks), turned into one finding placed where the explanation points: the first element
// it names that the notice has (matched by namespace URI through the conventional eForms prefixes,
// then by the name as written), else the root start tag. Pure: no I/O, no `vscode` import.

import type { Finding } from '../findings';
import { NS, type XmlIndex } from '../notice';
import { elementsNamedIn } from '../services';
import { rangeOfRoot } from '../svrl';

/** The prefixes the CVS and the SDK use in messages, and what they stand for. */
const CONVENTIONAL_PREFIXES: Readonly<Record<string, string>> = NS;

export const REJECTION_FINDING_ID = 'cvs-rejected';

/** The service's explanation as an error on the notice. */
export function rejectionFinding(index: XmlIndex, explanation: string): Finding {
  for (const name of elementsNamedIn(explanation)) {
    const [prefix = '', local = ''] = name.split(':');
    const ns = CONVENTIONAL_PREFIXES[prefix];
    const el =
      index.elements.find((e) => ns !== undefined && e.local === local && e.ns === ns) ??
      index.elements.find((e) => e.qname === name);
    if (el)
      return finding(
        explanation,
        {
          start: index.positionAt(el.start),
          end: index.positionAt(el.nameEnd),
        },
        true,
      );
  }
  // The named element is missing (or none is named): the root is where it would have to be added.
  return finding(explanation, rangeOfRoot(index), false);
}

function finding(explanation: string, range: Finding['range'], resolved: boolean): Finding {
  return {
    id: REJECTION_FINDING_ID,
    severity: 'error',
    message: `The validation service refused the notice: ${explanation}`,
    location: '',
    range,
    source: 'cvs',
    resolved,
  };
}
