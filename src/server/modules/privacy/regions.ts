// Regions for the OUT_OF_REGION flag: the region of the user's facility and of the patient's address. Facilities
// with national reach (ambulance and rescue services) have no region, so their accesses are never out of region.

/** Namibia's 14 regions, by the normalized names an address may end with. */
const REGIONS: Record<string, string> = {
  khomas: 'Khomas',
  erongo: 'Erongo',
  hardap: 'Hardap',
  karas: '//Karas',
  kavangoeast: 'Kavango East',
  kavangowest: 'Kavango West',
  kunene: 'Kunene',
  ohangwena: 'Ohangwena',
  omaheke: 'Omaheke',
  omusati: 'Omusati',
  oshana: 'Oshana',
  oshikoto: 'Oshikoto',
  otjozondjupa: 'Otjozondjupa',
  zambezi: 'Zambezi',
  caprivi: 'Zambezi',
};

/** The facilities of src/contracts/constants.ts FACILITIES that serve one region. */
const FACILITY_REGIONS: Record<string, string> = {
  windhoekcentralhospital: 'Khomas',
  katuturastatehospital: 'Khomas',
  oshakatistatehospital: 'Oshana',
  rundustatehospital: 'Kavango East',
  walvisbaystatehospital: 'Erongo',
  gobabisstatehospital: 'Omaheke',
  oshmed: 'Oshana',
  nust: 'Khomas',
};

const norm = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '')
    .replace(/region$/, '');

/** The region a facility serves, or null (unknown, or national reach). */
export function facilityRegion(facility: string | null): string | null {
  return facility ? (FACILITY_REGIONS[norm(facility)] ?? null) : null;
}

/** The region an address names in its last comma-separated part ('12 Main Street, Ondangwa, Oshana'), or null. */
export function addressRegion(address: string | null): string | null {
  if (!address) return null;
  const parts = address.split(',');
  return REGIONS[norm(parts[parts.length - 1] ?? '')] ?? null;
}
