-- Decision 052 (measured): the matcher's per-chunk DELETE of stale open pairs combined the patient_b index with the
-- queue index's whole 'open' range (a BitmapAnd), so each chunk read every open pair: the run slowed as the queue
-- grew. The patient_b index now carries the status, so the DELETE reads only the chunk's pairs.
DROP INDEX IF EXISTS "duplicate_pairs_patient_b_idx";--> statement-breakpoint
CREATE INDEX "duplicate_pairs_patient_b_idx" ON "duplicate_pairs" USING btree ("patient_b","status");--> statement-breakpoint
-- GIN indexes read on every search and match: without the pending list (fastupdate), an added patient goes straight
-- into the index instead of a list that every lookup scans in full until a vacuum (up to 4 MB; 300 rolled-back adds
-- were enough to slow the registry-wide run). Adds pay a few index writes each.
ALTER INDEX "patients_match_keys_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "patients_address_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "name_words_long_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
SELECT gin_clean_pending_list('patients_match_keys_idx'::regclass), gin_clean_pending_list('patients_address_trgm_idx'::regclass),
       gin_clean_pending_list('name_words_long_trgm_idx'::regclass);
