// Small Schematron schemas that tests write into a temporary SDK folder: the namespace `cbc` (urn:cbc),
// global lets, and one phase `eforms-1` that activates every pattern, each pattern's rules given as
// text. No I/O here.

/** A schema's text: `lets` as [name, XPath], `patterns` as [id, the rules' XML]. */
export function smallSchema(title: string, lets: [string, string][], patterns: [string, string][]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<schema xmlns="http://purl.oclc.org/dsdl/schematron" queryBinding="xslt2">',
    `  <title>${title}</title>`,
    '  <ns prefix="cbc" uri="urn:cbc"/>',
    ...lets.map(([name, value]) => `  <let name="${name}" value="${value}"/>`),
    `  <phase id="eforms-1">${patterns.map(([id]) => `<active pattern="${id}"/>`).join('')}</phase>`,
    ...patterns.map(([id, rules]) => `  <pattern id="${id}">${rules}</pattern>`),
    '</schema>',
  ].join('\n');
}
