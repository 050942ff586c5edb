// The namespaces of an eForms notice, written once: the URIs and the prefixes the SDK, the validation
// service and its messages use for them. Code matches elements by these URIs, never by a notice's own
// prefixes. Data only: no logic, no I/O.

/** Namespace URIs by the SDK's prefix. */
export const NS = {
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  ext: 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
  efac: 'http://data.europa.eu/p27/eforms-ubl-extension-aggregate-components/1',
  efbc: 'http://data.europa.eu/p27/eforms-ubl-extension-basic-components/1',
  efext: 'http://data.europa.eu/p27/eforms-ubl-extensions/1',
} as const;

export type SdkPrefix = keyof typeof NS;

/**
 * The SDK's prefix of each namespace URI above. Read with a notice's own namespace URIs as keys, so it
 * has no prototype: `xmlns="constructor"` or `"__proto__"` finds no prefix, not Object's members.
 */
export const PREFIX_OF: Readonly<Record<string, SdkPrefix>> = Object.assign(
  Object.create(null) as Record<string, SdkPrefix>,
  Object.fromEntries(Object.entries(NS).map(([prefix, uri]) => [uri, prefix as SdkPrefix])),
);
