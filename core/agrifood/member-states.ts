// EU Member State codes as the agri-food service writes them (EL for Greece, EU for the EU aggregate),
// with names and alpha-3 codes. Data only.

export interface MemberState {
  code: string;
  iso3: string;
  name: string;
}

export const MEMBER_STATES: readonly MemberState[] = [
  { code: 'AT', iso3: 'AUT', name: 'Austria' },
  { code: 'BE', iso3: 'BEL', name: 'Belgium' },
  { code: 'BG', iso3: 'BGR', name: 'Bulgaria' },
  { code: 'CY', iso3: 'CYP', name: 'Cyprus' },
  { code: 'CZ', iso3: 'CZE', name: 'Czechia' },
  { code: 'DE', iso3: 'DEU', name: 'Germany' },
  { code: 'DK', iso3: 'DNK', name: 'Denmark' },
  { code: 'EE', iso3: 'EST', name: 'Estonia' },
  { code: 'EL', iso3: 'GRC', name: 'Greece' },
  { code: 'ES', iso3: 'ESP', name: 'Spain' },
  { code: 'FI', iso3: 'FIN', name: 'Finland' },
  { code: 'FR', iso3: 'FRA', name: 'France' },
  { code: 'HR', iso3: 'HRV', name: 'Croatia' },
  { code: 'HU', iso3: 'HUN', name: 'Hungary' },
  { code: 'IE', iso3: 'IRL', name: 'Ireland' },
  { code: 'IT', iso3: 'ITA', name: 'Italy' },
  { code: 'LT', iso3: 'LTU', name: 'Lithuania' },
  { code: 'LU', iso3: 'LUX', name: 'Luxembourg' },
  { code: 'LV', iso3: 'LVA', name: 'Latvia' },
  { code: 'MT', iso3: 'MLT', name: 'Malta' },
  { code: 'NL', iso3: 'NLD', name: 'Netherlands' },
  { code: 'PL', iso3: 'POL', name: 'Poland' },
  { code: 'PT', iso3: 'PRT', name: 'Portugal' },
  { code: 'RO', iso3: 'ROU', name: 'Romania' },
  { code: 'SE', iso3: 'SWE', name: 'Sweden' },
  { code: 'SI', iso3: 'SVN', name: 'Slovenia' },
  { code: 'SK', iso3: 'SVK', name: 'Slovakia' },
];

/** The EU aggregate, which most price endpoints report beside the Member States. */
export const EU_AGGREGATE: MemberState = { code: 'EU', iso3: 'EUR', name: 'European Union' };

export function memberStateName(code: string): string | undefined {
  if (code === EU_AGGREGATE.code) return EU_AGGREGATE.name;
  return MEMBER_STATES.find((m) => m.code === code)?.name;
}
