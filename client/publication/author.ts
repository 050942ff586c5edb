// The notice author's details asked before a submission: the e-mail check (silent until something is
// typed, so an empty prompt does not greet the user with "required") and the locale choices, listed
// by language name (English name and the language's own) rather than by bare code. Pure: no `vscode`
// import, so it is tested under node:test.

const EMAIL = /^[^\s@<>()[\]\\,;:"]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

/** Why `v` is not an author e-mail; undefined when it is one. */
export function emailProblem(v: string): string | undefined {
  const t = v.trim();
  if (!t) return 'The e-mail of the person responsible for the notice is required.';
  return EMAIL.test(t) && t.length <= 254 ? undefined : 'Not a valid e-mail address (name@example.org).';
}

/**
 * What the input box shows while the user types: nothing until they typed something (the prompt
 * already says the e-mail is needed), then the problem with what they typed, "required" included
 * once they emptied the box again.
 */
export function emailValidation(v: string, typed: boolean): string | undefined {
  if (!typed && v.trim() === '') return undefined;
  return emailProblem(v);
}

export interface LocaleChoice {
  /** "French": the English name of the language. */
  label: string;
  /** "français · fr": its own name and the code sent to eNotices2. */
  description: string;
  code: string;
}

/** The locales as quick-pick items: English first, then by English name. */
export function localeChoices(codes: readonly string[]): LocaleChoice[] {
  const english = displayNames('en');
  const items = [...new Set(codes)].map((code) => {
    const label = english?.of(code) ?? code;
    const own = displayNames(code)?.of(code);
    const description = own && own !== label ? `${own} · ${code}` : code;
    return { label: capitalise(label), description, code };
  });
  return items.sort((a, b) =>
    a.code === 'en' ? -1 : b.code === 'en' ? 1 : a.label.localeCompare(b.label, 'en'),
  );
}

function displayNames(locale: string): Intl.DisplayNames | undefined {
  try {
    return new Intl.DisplayNames([locale], { type: 'language', fallback: 'code' });
  } catch {
    return undefined; // a runtime without ICU data for it: the code stands
  }
}

function capitalise(s: string): string {
  return s.charAt(0).toLocaleUpperCase() + s.slice(1);
}
