-- Patient search indexes and their upkeep (DESIGN.md §8, docs/decisions/001-patient-search.md).
-- name-dob, and fuzzy searches on a single last name: first_name_norm and id ride along for index-only scans.
CREATE INDEX IF NOT EXISTS patients_last_name_dob_idx ON patients (last_name_norm, date_of_birth) INCLUDE (first_name_norm, id);
--> statement-breakpoint
-- Fuzzy searches on a single first name, or a first name with the start of a last name.
CREATE INDEX IF NOT EXISTS patients_first_name_dob_idx ON patients (first_name_norm, date_of_birth) INCLUDE (last_name_norm, id);
--> statement-breakpoint
-- Address and location filters (word similarity on the folded address).
CREATE INDEX IF NOT EXISTS patients_address_trgm_idx ON patients USING gin (nhr_fold(address) gin_trgm_ops);
--> statement-breakpoint
-- The fuzzy search proper: (last word, first word) pairs, then the date-of-birth range, index-only.
CREATE INDEX IF NOT EXISTS patient_name_pairs_idx ON patient_name_pairs (last_word, first_word, date_of_birth) INCLUDE (patient_id, whole);
--> statement-breakpoint
-- Many distinct names: a larger sample lets the planner see which names are common.
ALTER TABLE patients ALTER COLUMN last_name_norm SET STATISTICS 1000;
--> statement-breakpoint
ALTER TABLE patients ALTER COLUMN first_name_norm SET STATISTICS 1000;
--> statement-breakpoint
-- Keeps the word pairs and the word dictionary (with its patient counts) in step with patients. Words whose count
-- falls to 0 stay in the dictionary: searches skip them.
CREATE OR REPLACE FUNCTION nhr_patient_search_sync() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
      DELETE FROM patient_name_pairs AS k
       USING nhr_name_words(OLD.last_name) AS l, nhr_name_words(OLD.first_name) AS f
       WHERE k.last_word = l.word AND k.first_word = f.word AND k.patient_id = OLD.id;
      UPDATE name_words SET patients = patients - 1
       WHERE word IN (SELECT word FROM nhr_name_words(OLD.last_name) UNION SELECT word FROM nhr_name_words(OLD.first_name));
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
      INSERT INTO patient_name_pairs (last_word, first_word, date_of_birth, patient_id, whole)
        SELECT l.word, f.word, NEW.date_of_birth, NEW.id, l.whole AND f.whole
          FROM nhr_name_words(NEW.last_name) AS l, nhr_name_words(NEW.first_name) AS f;
      WITH counted AS (
        INSERT INTO name_words AS n (word, patients)
          SELECT word, 1 FROM (SELECT word FROM nhr_name_words(NEW.last_name) UNION SELECT word FROM nhr_name_words(NEW.first_name)) AS w
          ON CONFLICT (word) DO UPDATE SET patients = n.patients + 1
          RETURNING n.word, n.patients
      )
      INSERT INTO name_word_deletes (del, word)
        SELECT d, c.word FROM counted AS c, nhr_word_deletes(c.word) AS d WHERE c.patients = 1
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
  END
  $$;
--> statement-breakpoint
CREATE TRIGGER patients_search_sync
  AFTER INSERT OR DELETE OR UPDATE OF first_name, last_name, date_of_birth ON patients
  FOR EACH ROW EXECUTE FUNCTION nhr_patient_search_sync();
--> statement-breakpoint
-- After a bulk load with the trigger disabled (npm run seed): rebuild the search tables set-wise, computing the
-- words once per distinct name rather than once per patient.
CREATE OR REPLACE FUNCTION nhr_rebuild_search_index() RETURNS void
  LANGUAGE plpgsql
  AS $$
  BEGIN
    DELETE FROM patient_name_pairs;
    DELETE FROM name_word_deletes;
    DELETE FROM name_words;
    CREATE TEMPORARY TABLE nhr_last_words ON COMMIT DROP AS
      SELECT d.name, d.n, w.word, w.whole
        FROM (SELECT last_name AS name, count(*) AS n FROM patients GROUP BY 1) AS d, nhr_name_words(d.name) AS w;
    CREATE TEMPORARY TABLE nhr_first_words ON COMMIT DROP AS
      SELECT d.name, d.n, w.word, w.whole
        FROM (SELECT first_name AS name, count(*) AS n FROM patients GROUP BY 1) AS d, nhr_name_words(d.name) AS w;
    ANALYZE nhr_last_words;
    ANALYZE nhr_first_words;
    INSERT INTO patient_name_pairs (last_word, first_word, date_of_birth, patient_id, whole)
      SELECT l.word, f.word, p.date_of_birth, p.id, l.whole AND f.whole
        FROM patients AS p
        JOIN nhr_last_words AS l ON l.name = p.last_name
        JOIN nhr_first_words AS f ON f.name = p.first_name;
    INSERT INTO name_words (word, patients)
      SELECT word, sum(n) FROM (SELECT word, n FROM nhr_last_words UNION ALL SELECT word, n FROM nhr_first_words) AS w GROUP BY word;
    INSERT INTO name_word_deletes (del, word)
      SELECT DISTINCT d, w.word FROM name_words AS w, nhr_word_deletes(w.word) AS d;
    DROP TABLE nhr_last_words;
    DROP TABLE nhr_first_words;
  END
  $$;
