CREATE TABLE "name_word_deletes" (
	"del" text NOT NULL,
	"word" text NOT NULL,
	CONSTRAINT "name_word_deletes_del_word_pk" PRIMARY KEY("del","word")
);
--> statement-breakpoint
CREATE TABLE "name_words" (
	"word" text PRIMARY KEY NOT NULL,
	"patients" integer DEFAULT 0 NOT NULL,
	"dm" text GENERATED ALWAYS AS (nhr_dmetaphone(word)) STORED,
	"dm_alt" text GENERATED ALWAYS AS (nhr_dmetaphone_alt(word)) STORED
);
--> statement-breakpoint
CREATE TABLE "patient_name_pairs" (
	"last_word" text NOT NULL,
	"first_word" text NOT NULL,
	"date_of_birth" date,
	"patient_id" integer NOT NULL,
	"whole" boolean NOT NULL
);
--> statement-breakpoint
DROP INDEX "patients_last_name_norm_dob_idx";--> statement-breakpoint
CREATE INDEX "name_words_prefix_idx" ON "name_words" USING btree ("word" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "name_words_dm_idx" ON "name_words" USING btree ("dm");--> statement-breakpoint
CREATE INDEX "name_words_dm_alt_idx" ON "name_words" USING btree ("dm_alt");--> statement-breakpoint
CREATE INDEX "name_words_long_trgm_idx" ON "name_words" USING gin ("word" gin_trgm_ops) WHERE length(word) >= 11;