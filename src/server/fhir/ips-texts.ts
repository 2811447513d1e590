// The words of the International Patient Summary's narratives (issue 26 item 7; decision 053) in the languages the
// record speaks: English, Afrikaans and Oshiwambo (Ndonga). The server writes the narrative (the client never shows
// it), so the catalogue lives here, with the words of the record screens' locale files (record.json).
export const IPS_LANGUAGES = ['en', 'af', 'ng'] as const;
export type IpsLanguage = (typeof IPS_LANGUAGES)[number];

export interface IpsTexts {
  title: string;
  sections: Record<'problems' | 'pastIllness' | 'allergies' | 'medications' | 'immunizations' | 'vitals' | 'results', string>;
  columns: { term: string; status: string; dates: string; details: string };
  /** An empty section: the record holds no entries of it (no claim that the patient has none). */
  noInformation: Record<'problems' | 'pastIllness' | 'allergies' | 'medications' | 'other', string>;
  withheld: string;
  dose: string;
  reaction: string;
  since: string;
  until: string;
  /** FHIR status, clinical status, severity and criticality codes. */
  codes: Record<string, string>;
}

const en: IpsTexts = {
  title: 'Patient summary',
  sections: {
    problems: 'Problem list',
    pastIllness: 'History of past illness',
    allergies: 'Allergies and intolerances',
    medications: 'Medication summary',
    immunizations: 'History of immunizations',
    vitals: 'Vital signs',
    results: 'Results',
  },
  columns: { term: 'Entry', status: 'Status', dates: 'Dates', details: 'Details' },
  noInformation: {
    problems: 'No information about problems',
    pastIllness: 'No information about past illnesses',
    allergies: 'No information about allergies',
    medications: 'No information about medicines',
    other: 'No information recorded',
  },
  withheld: 'Withheld: this client may not read these entries',
  dose: 'Dose',
  reaction: 'Reaction',
  since: 'since',
  until: 'until',
  codes: {
    active: 'Active',
    recurrence: 'Recurrence',
    relapse: 'Relapse',
    inactive: 'Inactive',
    remission: 'In remission',
    resolved: 'Resolved',
    confirmed: 'Confirmed',
    unconfirmed: 'Unconfirmed',
    completed: 'Completed',
    final: 'Final',
    preliminary: 'Preliminary',
    registered: 'Registered',
    amended: 'Amended',
    corrected: 'Corrected',
    cancelled: 'Cancelled',
    stopped: 'Stopped',
    'on-hold': 'On hold',
    intended: 'Intended',
    'not-taken': 'Not taken',
    unknown: 'Unknown',
    'entered-in-error': 'Entered in error',
    mild: 'Mild',
    moderate: 'Moderate',
    severe: 'Severe',
    low: 'Low criticality',
    high: 'High criticality',
    'unable-to-assess': 'Criticality unknown',
  },
};

const af: IpsTexts = {
  title: 'Pasiëntopsomming',
  sections: {
    problems: 'Probleemlys',
    pastIllness: 'Vorige siektes',
    allergies: 'Allergieë en intoleransies',
    medications: 'Medikasie-opsomming',
    immunizations: 'Inentingsgeskiedenis',
    vitals: 'Lewenstekens',
    results: 'Uitslae',
  },
  columns: { term: 'Inskrywing', status: 'Status', dates: 'Datums', details: 'Besonderhede' },
  noInformation: {
    problems: 'Geen inligting oor probleme nie',
    pastIllness: 'Geen inligting oor vorige siektes nie',
    allergies: 'Geen inligting oor allergieë nie',
    medications: 'Geen inligting oor medikasie nie',
    other: 'Geen inligting aangeteken nie',
  },
  withheld: 'Weerhou: hierdie kliënt mag nie hierdie inskrywings lees nie',
  dose: 'Dosis',
  reaction: 'Reaksie',
  since: 'sedert',
  until: 'tot',
  codes: {
    active: 'Aktief',
    recurrence: 'Herhaling',
    relapse: 'Terugval',
    inactive: 'Onaktief',
    remission: 'In remissie',
    resolved: 'Opgelos',
    confirmed: 'Bevestig',
    unconfirmed: 'Onbevestig',
    completed: 'Voltooi',
    final: 'Finaal',
    preliminary: 'Voorlopig',
    registered: 'Geregistreer',
    amended: 'Gewysig',
    corrected: 'Reggestel',
    cancelled: 'Gekanselleer',
    stopped: 'Gestaak',
    'on-hold': 'Opgeskort',
    intended: 'Beplan',
    'not-taken': 'Nie geneem nie',
    unknown: 'Onbekend',
    'entered-in-error': 'Foutief aangeteken',
    mild: 'Lig',
    moderate: 'Matig',
    severe: 'Ernstig',
    low: 'Lae risiko',
    high: 'Hoë risiko',
    'unable-to-assess': 'Risiko onbekend',
  },
};

const ng: IpsTexts = {
  title: 'Omukanda gwuukolele womuvu',
  sections: {
    problems: 'Omusholondondo gwuuvu',
    pastIllness: 'Uuvu wa kala po nale',
    allergies: 'Omaalergi',
    medications: 'Omiti',
    immunizations: 'Omiti dhokugamena dha pewa',
    vitals: 'Omakonaakono gomwenyo',
    results: 'Iizemo yolaboratori',
  },
  columns: { term: 'Oshinyolwa', status: 'Onkalo', dates: 'Omasiku', details: 'Uuyelele' },
  noInformation: {
    problems: 'Kapu na uuyelele kombinga yuuvu',
    pastIllness: 'Kapu na uuyelele kombinga yuuvu wa kala po nale',
    allergies: 'Kapu na uuyelele kombinga yomaalergi',
    medications: 'Kapu na uuyelele kombinga yomiti',
    other: 'Kapu na uuyelele wa nyolwa',
  },
  withheld: 'Sha holekwa: oprograma ndjika inayi pitikwa okulesha iinyolwa mbika',
  dose: 'Omutsimo',
  reaction: 'Shoka sha holoka molutu',
  since: 'okuza',
  until: 'sigo',
  codes: {
    active: 'Oshili po',
    recurrence: 'Sha galuka',
    relapse: 'Sha galuka ishewe',
    inactive: 'Kashi li po we',
    remission: 'Sha shuna pevi',
    resolved: 'Ya aludhwa',
    confirmed: 'Sha koshorekwa',
    unconfirmed: 'Inashi koshorekwa',
    completed: 'Ya manithwa',
    final: 'Shahugunina',
    preliminary: 'Shotango',
    registered: 'Sha nyolwa',
    amended: 'Sha lundululwa',
    corrected: 'Sha pukululwa',
    cancelled: 'Sha dhimwa po',
    stopped: 'Ya hulithwa',
    'on-hold': 'Sha kaleke',
    intended: 'Sha langekwa',
    'not-taken': 'Inashi nwiwa',
    unknown: 'Inashi tseyika',
    'entered-in-error': 'Sha nyolwa nepuko',
    mild: 'Oshishona',
    moderate: 'Opokati',
    severe: 'Oshinene',
    low: 'Oshiponga oshishona',
    high: 'Oshiponga oshinene',
    'unable-to-assess': 'Oshiponga inashi tseyika',
  },
};

export const IPS_TEXTS: Record<IpsLanguage, IpsTexts> = { en, af, ng };
