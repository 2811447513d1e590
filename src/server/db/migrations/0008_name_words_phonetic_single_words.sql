-- Phonetic lookups on single words only: long concatenated names (double first names, hyphenated surnames) share
-- their first word's code and crowded the double-metaphone lookups (docs/decisions/008-patient-search.md).
DROP INDEX "name_words_dm_idx";--> statement-breakpoint
DROP INDEX "name_words_dm_alt_idx";--> statement-breakpoint
CREATE INDEX "name_words_dm_idx" ON "name_words" USING btree ("dm") WHERE length(word) <= 12;--> statement-breakpoint
CREATE INDEX "name_words_dm_alt_idx" ON "name_words" USING btree ("dm_alt") WHERE length(word) <= 12;