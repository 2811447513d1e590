-- Functions behind patient search (DESIGN.md §8, docs/decisions/001-patient-search.md).
-- dmetaphone() and unaccent() resolve through the search path; these schema-qualified wrappers are safe to mark
-- IMMUTABLE, so they can feed generated columns and indexes.
CREATE OR REPLACE FUNCTION nhr_dmetaphone(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.dmetaphone($1) $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION nhr_dmetaphone_alt(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.dmetaphone_alt($1) $$;
--> statement-breakpoint
-- Lower case without accents, spaces and punctuation kept: what addresses are matched on. Schema-qualified calls:
-- PostgreSQL 17+ builds indexes with a restricted search path.
CREATE OR REPLACE FUNCTION nhr_fold(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.nhr_unaccent($1)) $$;
--> statement-breakpoint
-- The search words of a name: the whole normalized name (whole = true) and each word of a multi-word name,
-- particles left out: 'van der Merwe' gives vandermerwe and merwe; 'Maria Ndapewa' gives mariandapewa, maria, ndapewa.
-- The application mirrors this in name-words.ts.
CREATE OR REPLACE FUNCTION nhr_name_words(name text) RETURNS TABLE (word text, whole boolean)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$
    SELECT public.nhr_norm(name), true WHERE public.nhr_norm(name) <> ''
    UNION
    SELECT w, false FROM regexp_split_to_table(lower(public.nhr_unaccent(name)), '[^a-z0-9]+') AS w
     WHERE length(w) >= 2 AND w <> public.nhr_norm(name)
       AND w NOT IN ('van', 'der', 'den', 'de', 'du', 'le', 'la', 'von', 'zu', 'ya', 'da', 'ter', 'te')
  $$;
--> statement-breakpoint
-- A word and the strings made by deleting one letter (words of 3-12 letters) or two letters (5-10 letters).
-- Two words within two typos share one of these, so a typo lookup is a handful of index probes. May repeat a string.
CREATE OR REPLACE FUNCTION nhr_word_deletes(w text) RETURNS SETOF text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT
  AS $$
  DECLARE
    n int := length(w);
    one text;
  BEGIN
    IF n > 12 THEN
      RETURN;
    END IF;
    RETURN NEXT w;
    IF n < 3 THEN
      RETURN;
    END IF;
    FOR i IN 1..n LOOP
      one := overlay(w PLACING '' FROM i FOR 1);
      RETURN NEXT one;
      IF n BETWEEN 5 AND 10 THEN
        -- Position j of `one` is position j + 1 of w: each pair of deleted positions comes once.
        FOR j IN i..n - 1 LOOP
          RETURN NEXT overlay(one PLACING '' FROM j FOR 1);
        END LOOP;
      END IF;
    END LOOP;
  END
  $$;
