// A tiny generated SDK release whose rules can be made as slow as a test needs: phase eforms-1 holds
// one assertion over 10^10 pairs (it never finishes in a test's life, and never polls for
// cancellation, as a rule stuck in one expression or one RegExp), phase eforms-2 one assertion that
// fails at once. With the notices that select them. Written into a temporary folder.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SCH = `<?xml version="1.0" encoding="UTF-8"?>
<schema xmlns="http://purl.oclc.org/dsdl/schematron" queryBinding="xslt2">
  <title>slow rules</title>
  <ns prefix="cbc" uri="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"/>
  <phase id="eforms-1"><active pattern="slow"/></phase>
  <phase id="eforms-2"><active pattern="fast"/></phase>
  <pattern id="slow">
    <rule context="/*">
      <assert id="SLOW-1" role="ERROR" test="every $a in 1 to 100000, $b in 1 to 100000 satisfies $a + $b gt 0">rule|text|SLOW-1</assert>
    </rule>
  </pattern>
  <pattern id="fast">
    <rule context="/*">
      <assert id="FAST-1" role="ERROR" test="false()">rule|text|FAST-1</assert>
    </rule>
  </pattern>
</schema>
`;

/** Writes the release `1.15.0` into `dir` and returns `dir`. */
export function writeSlowSdk(dir: string): string {
  mkdirSync(join(dir, 'schematrons', 'static'), { recursive: true });
  writeFileSync(join(dir, 'VERSION'), '1.15.0\n');
  writeFileSync(join(dir, 'schematrons', 'static', 'complete-validation.sch'), SCH);
  return dir;
}

/** A contract notice of SDK 1.15 with subtype `code` (1: the slow phase, 2: the fast one). */
export function slowSdkNotice(code: '1' | '2', id = `notice-${code}`): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<ContractNotice xmlns="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:ext="urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2" xmlns:efac="http://data.europa.eu/p27/eforms-ubl-extension-aggregate-components/1" xmlns:efext="http://data.europa.eu/p27/eforms-ubl-extensions/1">
  <ext:UBLExtensions><ext:UBLExtension><ext:ExtensionContent><efext:EformsExtension>
    <efac:NoticeSubType><cbc:SubTypeCode listName="notice-subtype">${code}</cbc:SubTypeCode></efac:NoticeSubType>
  </efext:EformsExtension></ext:ExtensionContent></ext:UBLExtension></ext:UBLExtensions>
  <cbc:UBLVersionID>2.3</cbc:UBLVersionID>
  <cbc:CustomizationID>eforms-sdk-1.15</cbc:CustomizationID>
  <cbc:ID schemeName="notice-id">${id}</cbc:ID>
</ContractNotice>
`;
}
