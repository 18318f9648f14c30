-- Search (issue 45): full-text indexes of people (username, display name) and entries (message,
-- workout title), ignoring case and accents, searched by word prefix. Expression indexes over the rows
-- themselves: always in step with every writer. unaccent lives in "public" (an extension belongs to one
-- schema of the database, and schemas come and go); the wrapper is immutable, as an index needs.
-- (two schemas migrating at once may both create it: the second finds it made)
DO $$ BEGIN
    CREATE EXTENSION IF NOT EXISTS "unaccent" SCHEMA "public";
EXCEPTION WHEN unique_violation OR duplicate_object THEN NULL;
END $$;

CREATE FUNCTION "milepost_search_text"(text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    AS $$ SELECT to_tsvector('simple'::regconfig, "public"."unaccent"('"public"."unaccent"'::regdictionary, $1)) $$;

CREATE INDEX "Person_search_idx" ON "Person" USING gin ("milepost_search_text"("username" || ' ' || "displayName"));
CREATE INDEX "Entry_search_idx" ON "Entry" USING gin ("milepost_search_text"(coalesce("message", '')));
CREATE INDEX "Workout_search_idx" ON "Workout" USING gin ("milepost_search_text"(coalesce("title", '')));
