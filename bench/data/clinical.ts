// Plausible clinical values for the synthetic records (common conditions and treatments in Namibia).

export const CONDITIONS: readonly { condition: string; chronic: boolean }[] = [
  { condition: 'Hypertension', chronic: true },
  { condition: 'Type 2 diabetes mellitus', chronic: true },
  { condition: 'HIV infection', chronic: true },
  { condition: 'Pulmonary tuberculosis', chronic: false },
  { condition: 'Malaria (P. falciparum)', chronic: false },
  { condition: 'Asthma', chronic: true },
  { condition: 'Upper respiratory tract infection', chronic: false },
  { condition: 'Pneumonia', chronic: false },
  { condition: 'Acute gastroenteritis', chronic: false },
  { condition: 'Urinary tract infection', chronic: false },
  { condition: 'Iron deficiency anaemia', chronic: false },
  { condition: 'Major depressive disorder', chronic: true },
  { condition: 'Epilepsy', chronic: true },
  { condition: 'Chronic kidney disease stage 3', chronic: true },
  { condition: 'Osteoarthritis of the knee', chronic: true },
  { condition: 'Lower back pain', chronic: false },
  { condition: 'Otitis media', chronic: false },
  { condition: 'Conjunctivitis', chronic: false },
  { condition: 'Skin abscess', chronic: false },
  { condition: 'Pregnancy (antenatal care)', chronic: false },
];

export const MEDICATIONS: readonly { name: string; dosage: string; frequency: string; purpose: string }[] = [
  { name: 'Amlodipine', dosage: '5mg', frequency: 'Once daily', purpose: 'Blood pressure' },
  { name: 'Hydrochlorothiazide', dosage: '12.5mg', frequency: 'Once daily', purpose: 'Blood pressure' },
  { name: 'Enalapril', dosage: '10mg', frequency: 'Twice daily', purpose: 'Blood pressure' },
  { name: 'Metformin', dosage: '500mg', frequency: 'Twice daily', purpose: 'Blood sugar control' },
  { name: 'Glibenclamide', dosage: '5mg', frequency: 'Once daily', purpose: 'Blood sugar control' },
  { name: 'Tenofovir/Lamivudine/Dolutegravir', dosage: '1 tablet', frequency: 'Once daily', purpose: 'Antiretroviral therapy' },
  { name: 'Rifampicin/Isoniazid', dosage: '2 tablets', frequency: 'Once daily', purpose: 'Tuberculosis treatment' },
  { name: 'Artemether/Lumefantrine', dosage: '4 tablets', frequency: 'Twice daily for 3 days', purpose: 'Malaria treatment' },
  { name: 'Salbutamol inhaler', dosage: '100mcg', frequency: 'As needed', purpose: 'Asthma relief' },
  { name: 'Amoxicillin', dosage: '500mg', frequency: 'Three times daily', purpose: 'Bacterial infection' },
  { name: 'Paracetamol', dosage: '1g', frequency: 'Four times daily', purpose: 'Pain relief' },
  { name: 'Ibuprofen', dosage: '400mg', frequency: 'Three times daily', purpose: 'Pain and inflammation' },
  { name: 'Ferrous sulphate', dosage: '200mg', frequency: 'Once daily', purpose: 'Anaemia' },
  { name: 'Fluoxetine', dosage: '20mg', frequency: 'Once daily', purpose: 'Depression' },
  { name: 'Carbamazepine', dosage: '200mg', frequency: 'Twice daily', purpose: 'Seizure control' },
  { name: 'Co-trimoxazole', dosage: '960mg', frequency: 'Once daily', purpose: 'Infection prophylaxis' },
  { name: 'Folic acid', dosage: '5mg', frequency: 'Once daily', purpose: 'Pregnancy supplement' },
];

export const ALLERGIES: readonly { allergen: string; reaction: string }[] = [
  { allergen: 'Penicillin', reaction: 'Rash and hives' },
  { allergen: 'Sulfonamides', reaction: 'Skin rash' },
  { allergen: 'Aspirin', reaction: 'Wheezing' },
  { allergen: 'Peanuts', reaction: 'Swelling of lips and throat' },
  { allergen: 'Bee stings', reaction: 'Anaphylaxis' },
  { allergen: 'Latex', reaction: 'Contact dermatitis' },
  { allergen: 'Codeine', reaction: 'Nausea and vomiting' },
  { allergen: 'Shellfish', reaction: 'Hives' },
  { allergen: 'Dust mites', reaction: 'Sneezing and itchy eyes' },
  { allergen: 'Ibuprofen', reaction: 'Stomach pain and rash' },
];

export const ALLERGY_SEVERITIES = ['Mild', 'Moderate', 'Severe'] as const;

/** Childhood schedule first (given by age), then adult vaccines. */
export const VACCINES: readonly { vaccine: string; dose: string; childhood: boolean }[] = [
  { vaccine: 'BCG', dose: 'Single dose', childhood: true },
  { vaccine: 'OPV (polio)', dose: 'Dose 1', childhood: true },
  { vaccine: 'Pentavalent (DTP-HepB-Hib)', dose: 'Dose 1', childhood: true },
  { vaccine: 'Pneumococcal conjugate (PCV)', dose: 'Dose 1', childhood: true },
  { vaccine: 'Rotavirus', dose: 'Dose 1', childhood: true },
  { vaccine: 'Measles-Rubella', dose: 'Dose 1', childhood: true },
  { vaccine: 'HPV', dose: 'Dose 1', childhood: false },
  { vaccine: 'Tetanus toxoid', dose: 'Booster', childhood: false },
  { vaccine: 'COVID-19 (Pfizer-BioNTech)', dose: 'Dose 2', childhood: false },
  { vaccine: 'Influenza', dose: 'Annual', childhood: false },
  { vaccine: 'Hepatitis B', dose: 'Dose 3', childhood: false },
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
