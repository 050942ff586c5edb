// The fields and nodes an EFX expression names, read from an SDK's `fields/fields.json` (already parsed
// by the caller: this module does no I/O). Only what translation needs is kept: absolute XPath, type,
// code list, attribute. Unknown shapes are skipped, never thrown on: a field missing here is reported
// when an expression uses it.

export interface EfxField {
  id: string;
  /** fields.json `type`: text, code, indicator, date, measure, amount… */
  type: string;
  xpathAbsolute: string;
  xpathRelative?: string;
  parentNodeId?: string;
  /** The code list of a code field, and its root (`parentId` of a tailored list, else the list). */
  codeListId?: string;
  rootCodeListId?: string;
  /** Set when the field is an attribute (`…/@currencyID`). */
  attributeName?: string;
}

export interface EfxNode {
  id: string;
  xpathAbsolute: string;
  xpathRelative?: string;
  parentId?: string;
}

export interface EfxSymbols {
  field(id: string): EfxField | undefined;
  node(id: string): EfxNode | undefined;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The symbol table of one fields.json. */
export function symbolsFromFieldsJson(json: unknown): EfxSymbols {
  const fields = new Map<string, EfxField>();
  const nodes = new Map<string, EfxNode>();
  const root = (json ?? {}) as { fields?: unknown; xmlStructure?: unknown };
  for (const raw of Array.isArray(root.xmlStructure) ? root.xmlStructure : []) {
    const r = raw as Record<string, unknown>;
    const id = str(r.id);
    const xpathAbsolute = str(r.xpathAbsolute);
    if (!id || !xpathAbsolute) continue;
    nodes.set(id, { id, xpathAbsolute, xpathRelative: str(r.xpathRelative), parentId: str(r.parentId) });
  }
  for (const raw of Array.isArray(root.fields) ? root.fields : []) {
    const r = raw as Record<string, unknown>;
    const id = str(r.id);
    const xpathAbsolute = str(r.xpathAbsolute);
    if (!id || !xpathAbsolute) continue;
    const f: EfxField = { id, type: str(r.type) ?? 'text', xpathAbsolute };
    const rel = str(r.xpathRelative);
    if (rel) f.xpathRelative = rel;
    const parent = str(r.parentNodeId);
    if (parent) f.parentNodeId = parent;
    const cl = (r.codeList as { value?: { id?: unknown; parentId?: unknown } } | undefined)?.value;
    const clId = str(cl?.id);
    if (clId) {
      f.codeListId = clId;
      f.rootCodeListId = str(cl?.parentId) ?? clId;
    }
    // Older SDKs have no attributeName: the XPath tells.
    const attr = str(r.attributeName) ?? /\/@([A-Za-z_][\w.-]*)$/.exec(xpathAbsolute)?.[1];
    if (attr) f.attributeName = attr;
    fields.set(id, f);
  }
  return { field: (id) => fields.get(id), node: (id) => nodes.get(id) };
}
