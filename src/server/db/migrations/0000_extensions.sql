-- Extensions used by patient search (DESIGN.md §1, §8), and the normalizer behind the generated search columns.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
-- unaccent() is only STABLE; naming the dictionary makes this wrapper safe to mark IMMUTABLE for generated columns and indexes.
CREATE OR REPLACE FUNCTION nhr_unaccent(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;
--> statement-breakpoint
-- Lower case, accents dropped, everything but letters and digits removed: 'Van der Merwe' and 'vanDerMérwe' both become 'vandermerwe'.
CREATE OR REPLACE FUNCTION nhr_norm(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT regexp_replace(lower(nhr_unaccent($1)), '[^a-z0-9]+', '', 'g') $$;
