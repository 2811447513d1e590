-- The patient portal's second factor (docs/decisions/016-patient-portal-second-factor.md): a 6-digit PIN the patient
-- chooses, set with a one-time activation code a clinic issues. Both stored as argon2id hashes; one row per patient.
-- A code is used by one conditional UPDATE (WHERE code_hash = the hash that was checked), so it works once.
CREATE TABLE "patient_portal_credentials" (
  "patient_id" integer PRIMARY KEY NOT NULL REFERENCES "patients"("id") ON DELETE CASCADE,
  "pin_hash" text,
  "pin_set_at" timestamp with time zone,
  "code_hash" text,
  "code_issued_at" timestamp with time zone,
  "code_expires_at" timestamp with time zone,
  "code_issued_by" text,
  "code_used_at" timestamp with time zone
);
