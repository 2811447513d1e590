// Plausible clinical values for the synthetic records (common conditions and treatments in Namibia).

/** Each with its ICD-10 code (catalogues/diagnoses.tsv); the seeder stores most coded, some as free text. */
export const CONDITIONS: readonly { condition: string; chronic: boolean; code: string }[] = [
  { condition: 'Hypertension', chronic: true, code: 'I10' },
  { condition: 'Type 2 diabetes mellitus', chronic: true, code: 'E11.9' },
  { condition: 'HIV infection', chronic: true, code: 'B20' },
  { condition: 'Pulmonary tuberculosis', chronic: false, code: 'A15.0' },
  { condition: 'Malaria (P. falciparum)', chronic: false, code: 'B50.9' },
  { condition: 'Asthma', chronic: true, code: 'J45.9' },
  { condition: 'Upper respiratory tract infection', chronic: false, code: 'J06.9' },
  { condition: 'Pneumonia', chronic: false, code: 'J18.9' },
  { condition: 'Acute gastroenteritis', chronic: false, code: 'A09' },
  { condition: 'Urinary tract infection', chronic: false, code: 'N39.0' },
  { condition: 'Iron deficiency anaemia', chronic: false, code: 'D50' },
  { condition: 'Major depressive disorder', chronic: true, code: 'F32.9' },
  { condition: 'Epilepsy', chronic: true, code: 'G40.9' },
  { condition: 'Chronic kidney disease stage 3', chronic: true, code: 'N18' },
  { condition: 'Osteoarthritis of the knee', chronic: true, code: 'M17.9' },
  { condition: 'Lower back pain', chronic: false, code: 'M54.5' },
  { condition: 'Otitis media', chronic: false, code: 'H66.9' },
  { condition: 'Conjunctivitis', chronic: false, code: 'H10.9' },
  { condition: 'Skin abscess', chronic: false, code: 'L02.9' },
  { condition: 'Pregnancy (antenatal care)', chronic: false, code: 'Z34.9' },
];

/** Each with its ATC code (catalogues/medications.tsv). */
export const MEDICATIONS: readonly { name: string; dosage: string; frequency: string; purpose: string; code: string }[] = [
  { name: 'Amlodipine', dosage: '5mg', frequency: 'Once daily', purpose: 'Blood pressure', code: 'C08CA01' },
  { name: 'Hydrochlorothiazide', dosage: '12.5mg', frequency: 'Once daily', purpose: 'Blood pressure', code: 'C03AA03' },
  { name: 'Enalapril', dosage: '10mg', frequency: 'Twice daily', purpose: 'Blood pressure', code: 'C09AA02' },
  { name: 'Metformin', dosage: '500mg', frequency: 'Twice daily', purpose: 'Blood sugar control', code: 'A10BA02' },
  { name: 'Glibenclamide', dosage: '5mg', frequency: 'Once daily', purpose: 'Blood sugar control', code: 'A10BB01' },
  { name: 'Tenofovir/Lamivudine/Dolutegravir', dosage: '1 tablet', frequency: 'Once daily', purpose: 'Antiretroviral therapy', code: 'J05AR27' },
  { name: 'Rifampicin/Isoniazid', dosage: '2 tablets', frequency: 'Once daily', purpose: 'Tuberculosis treatment', code: 'J04AM02' },
  { name: 'Artemether/Lumefantrine', dosage: '4 tablets', frequency: 'Twice daily for 3 days', purpose: 'Malaria treatment', code: 'P01BF01' },
  { name: 'Salbutamol inhaler', dosage: '100mcg', frequency: 'As needed', purpose: 'Asthma relief', code: 'R03AC02' },
  { name: 'Amoxicillin', dosage: '500mg', frequency: 'Three times daily', purpose: 'Bacterial infection', code: 'J01CA04' },
  { name: 'Paracetamol', dosage: '1g', frequency: 'Four times daily', purpose: 'Pain relief', code: 'N02BE01' },
  { name: 'Ibuprofen', dosage: '400mg', frequency: 'Three times daily', purpose: 'Pain and inflammation', code: 'M01AE01' },
  { name: 'Ferrous sulphate', dosage: '200mg', frequency: 'Once daily', purpose: 'Anaemia', code: 'B03AA07' },
  { name: 'Fluoxetine', dosage: '20mg', frequency: 'Once daily', purpose: 'Depression', code: 'N06AB03' },
  { name: 'Carbamazepine', dosage: '200mg', frequency: 'Twice daily', purpose: 'Seizure control', code: 'N03AF01' },
  { name: 'Co-trimoxazole', dosage: '960mg', frequency: 'Once daily', purpose: 'Infection prophylaxis', code: 'J01EE01' },
  { name: 'Folic acid', dosage: '5mg', frequency: 'Once daily', purpose: 'Pregnancy supplement', code: 'B03BB01' },
];

/** Each with its code: an ATC class or drug, or a substance of our own system (catalogues/allergies.tsv). */
export const ALLERGIES: readonly { allergen: string; reaction: string; code: string; system: 'atc' | 'local' }[] = [
  { allergen: 'Penicillin', reaction: 'Rash and hives', code: 'J01C', system: 'atc' },
  { allergen: 'Sulfonamides', reaction: 'Skin rash', code: 'J01E', system: 'atc' },
  { allergen: 'Aspirin', reaction: 'Wheezing', code: 'N02BA01', system: 'atc' },
  { allergen: 'Peanuts', reaction: 'Swelling of lips and throat', code: 'food-peanut', system: 'local' },
  { allergen: 'Bee stings', reaction: 'Anaphylaxis', code: 'env-insect-sting', system: 'local' },
  { allergen: 'Latex', reaction: 'Contact dermatitis', code: 'env-latex', system: 'local' },
  { allergen: 'Codeine', reaction: 'Nausea and vomiting', code: 'R05DA04', system: 'atc' },
  { allergen: 'Shellfish', reaction: 'Hives', code: 'food-shellfish', system: 'local' },
  { allergen: 'Dust mites', reaction: 'Sneezing and itchy eyes', code: 'env-house-dust-mite', system: 'local' },
  { allergen: 'Ibuprofen', reaction: 'Stomach pain and rash', code: 'M01AE01', system: 'atc' },
];

export const ALLERGY_SEVERITIES = ['Mild', 'Moderate', 'Severe'] as const;

/** Childhood schedule first (given by age), then adult vaccines. */
export const VACCINES: readonly { vaccine: string; dose: string; childhood: boolean; code: string }[] = [
  { vaccine: 'BCG', dose: 'Single dose', childhood: true, code: '19' },
  { vaccine: 'OPV (polio)', dose: 'Dose 1', childhood: true, code: '178' },
  { vaccine: 'Pentavalent (DTP-HepB-Hib)', dose: 'Dose 1', childhood: true, code: '198' },
  { vaccine: 'Pneumococcal conjugate (PCV)', dose: 'Dose 1', childhood: true, code: '133' },
  { vaccine: 'Rotavirus', dose: 'Dose 1', childhood: true, code: '119' },
  { vaccine: 'Measles-Rubella', dose: 'Dose 1', childhood: true, code: '04' },
  { vaccine: 'HPV', dose: 'Dose 1', childhood: false, code: '165' },
  { vaccine: 'Tetanus toxoid', dose: 'Booster', childhood: false, code: '35' },
  { vaccine: 'COVID-19 (Pfizer-BioNTech)', dose: 'Dose 2', childhood: false, code: '208' },
  { vaccine: 'Influenza', dose: 'Annual', childhood: false, code: '88' },
  { vaccine: 'Hepatitis B', dose: 'Dose 3', childhood: false, code: '08' },
];

export const APPOINTMENT_TYPES = [
  'General consultation', 'Follow-up visit', 'Antenatal check-up', 'Chronic care review', 'HIV clinic',
  'TB clinic', 'Blood test', 'Chest X-ray', 'Immunisation', 'Dental check-up', 'Eye examination',
  'Physiotherapy',
];

export const FINDINGS = [
  'Stable, continue current treatment', 'Blood pressure controlled', 'HbA1c 7.2%, adjust diet',
  'Viral load suppressed', 'No abnormalities found', 'Mild improvement', 'Referred to specialist',
  'Sputum negative', 'Haemoglobin 10.8 g/dL',
];

export const DOCTORS = [
  'Dr. N. Shikongo', 'Dr. P. van der Merwe', 'Dr. T. Kandjii', 'Dr. M. Müller', 'Dr. S. Iipumbu',
  'Dr. A. Gaoseb', 'Dr. J. Smith', 'Dr. L. Amutenya', 'Dr. K. Tjiriange', 'Dr. H. Botha',
  'Sr. E. Nangolo', 'Sr. R. Haufiku',
];

/** Common laboratory tests (LOINC, catalogues/lab-results.tsv) with a typical value spread around the reference range. */
export const LAB_TESTS: readonly {
  code: string;
  name: string;
  unit: string | null;
  low: number | null;
  high: number | null;
  /** Numeric: the mean and spread of generated values; text: the possible answers. */
  values: { mean: number; spread: number; decimals: number } | readonly string[];
}[] = [
  { code: '718-7', name: 'Haemoglobin', unit: 'g/dL', low: 12, high: 17.5, values: { mean: 13.5, spread: 2.5, decimals: 1 } },
  { code: '4548-4', name: 'HbA1c', unit: '%', low: 4, high: 5.6, values: { mean: 6.2, spread: 1.5, decimals: 1 } },
  { code: '2823-3', name: 'Potassium', unit: 'mmol/L', low: 3.5, high: 5.1, values: { mean: 4.3, spread: 0.7, decimals: 1 } },
  { code: '2160-0', name: 'Creatinine', unit: 'mg/dL', low: 0.6, high: 1.3, values: { mean: 1.0, spread: 0.4, decimals: 2 } },
  { code: '24467-3', name: 'CD4 count', unit: '/uL', low: 500, high: 1500, values: { mean: 620, spread: 260, decimals: 0 } },
  { code: '20447-9', name: 'HIV viral load', unit: '{copies}/mL', low: null, high: 1000, values: { mean: 400, spread: 700, decimals: 0 } },
  { code: '68961-2', name: 'HIV rapid test', unit: null, low: null, high: null, values: ['Negative', 'Negative', 'Negative', 'Positive'] },
  { code: '38379-4', name: 'TB GeneXpert', unit: null, low: null, high: null, values: ['MTB not detected', 'MTB not detected', 'MTB detected, rifampicin resistance not detected'] },
];
