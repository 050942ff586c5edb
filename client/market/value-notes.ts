// What the short codes of the agri-food filters mean, shown beside them in the Market Explorer
// ("E — carcass lean meat 55% to under 60%"): the service lists the codes without words. The pig
// classes are those of the EU carcass grading (Regulation (EU) No 1308/2013, Annex IV, point B), the
// sheep categories the light and heavy lambs of the EU price reporting. Pure data: no `vscode`
// import, so the webview bundles it too.

/** Meaning of an allowed value, by filter name then value. */
export const VALUE_NOTES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  pigClasses: {
    S: 'class S: carcass lean meat 60% or more',
    E: 'class E: lean meat 55% to under 60% (the EU reference class)',
    R: 'class R: lean meat 45% to under 50%',
    SE: 'classes S and E together',
    Piglet: 'piglets',
  },
  productCodes: {
    EU_L: 'light lambs (carcasses under 13 kg)',
    EU_H: 'heavy lambs (carcasses of 13 kg or more)',
  },
};

/** The option text: the code, then what it means when known. */
export function optionText(param: string, value: string): string {
  // The values come from the service: only the notes written here, never an object's own members.
  const notes = Object.hasOwn(VALUE_NOTES, param) ? VALUE_NOTES[param] : undefined;
  const note = notes && Object.hasOwn(notes, value) ? notes[value] : undefined;
  return note ? `${value} — ${note}` : value;
}
