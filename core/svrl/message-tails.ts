// The words that the SVRL mapping appends to a rule's own message (the missing children, the field,
// a location the notice lacks), in the languages the rules' messages come in, so that a French report
// reads French to its end. Languages without a table here get English, as the service gives them raw
// keys anyway. Pure data: no I/O, no `vscode` import.

export interface MessageTails {
  missing(what: string, field?: string): string;
  field(field: string): string;
  notInNotice(location: string): string;
  /** A location in an XPath form this tool does not read, or over the input limits: it may well exist. */
  notEvaluated(location: string): string;
  noLocation: string;
  /** The message of the one finding that stands for a report's assertions past the findings limit. */
  omitted(left: number, shown: number): string;
}

const EN: MessageTails = {
  missing: (what, field) => (field ? ` — missing ${what} (field ${field})` : ` — missing ${what}`),
  field: (field) => ` (field ${field})`,
  notInNotice: (location) =>
    ` (reported at ${location}, which is not in this notice: shown on the root element)`,
  notEvaluated: (location) =>
    ` (reported at ${location}, a location this tool cannot evaluate: shown on the root element)`,
  noLocation: ' (the report gives no location: shown on the root element)',
  omitted: (left, shown) =>
    `The report holds ${count(left, 'en')} more findings than the ${count(shown, 'en')} shown here: correct these and validate again to see the rest.`,
};

const TAILS: Record<string, MessageTails> = {
  en: EN,
  fr: {
    missing: (what, field) => (field ? ` — manque ${what} (champ ${field})` : ` — manque ${what}`),
    field: (field) => ` (champ ${field})`,
    notInNotice: (location) =>
      ` (signalé en ${location}, qui n'existe pas dans cet avis : affiché sur l'élément racine)`,
    notEvaluated: (location) =>
      ` (signalé en ${location}, un emplacement que cet outil ne sait pas évaluer : affiché sur l'élément racine)`,
    noLocation: " (le rapport ne donne pas d'emplacement : affiché sur l'élément racine)",
    omitted: (left, shown) =>
      `Le rapport contient ${count(left, 'fr')} constats de plus que les ${count(shown, 'fr')} affichés ici : corrigez-les et validez à nouveau pour voir les autres.`,
  },
  de: {
    missing: (what, field) => (field ? ` — es fehlt ${what} (Feld ${field})` : ` — es fehlt ${what}`),
    field: (field) => ` (Feld ${field})`,
    notInNotice: (location) =>
      ` (gemeldet bei ${location}, das in dieser Bekanntmachung fehlt: am Wurzelelement angezeigt)`,
    notEvaluated: (location) =>
      ` (gemeldet bei ${location}, einer Stelle, die dieses Werkzeug nicht auswerten kann: am Wurzelelement angezeigt)`,
    noLocation: ' (der Bericht nennt keine Stelle: am Wurzelelement angezeigt)',
    omitted: (left, shown) =>
      `Der Bericht enthält ${count(left, 'de')} Befunde mehr als die ${count(shown, 'de')} hier angezeigten: beheben Sie diese und prüfen Sie erneut, um die übrigen zu sehen.`,
  },
};

/** A count as the language writes it (50,000; 50 000; 50.000). */
function count(n: number, language: string): string {
  return n.toLocaleString(language);
}

/** The tails for a report language (`fr`, `de`…); English when there is no table for it. */
export function messageTailsFor(language: string | undefined): MessageTails {
  return TAILS[(language ?? 'en').toLowerCase()] ?? EN;
}
