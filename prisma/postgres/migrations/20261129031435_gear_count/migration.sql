-- How many pieces of gear each person keeps, moved by triggers: an athlete's page, read on every view,
-- reads their gear only when there is some (most people keep none).
ALTER TABLE "Person" ADD COLUMN "gearCount" INTEGER NOT NULL DEFAULT 0;

UPDATE "Person" SET "gearCount" = (SELECT count(*) FROM "Gear" WHERE "ownerId" = "Person"."id");

CREATE FUNCTION "milepost_gear_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE "Person" SET "gearCount" = "gearCount" + 1 WHERE "id" = NEW."ownerId";
    ELSE
        UPDATE "Person" SET "gearCount" = "gearCount" - 1 WHERE "id" = OLD."ownerId";
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER "Gear_count" AFTER INSERT OR DELETE ON "Gear" FOR EACH ROW EXECUTE FUNCTION "milepost_gear_count"();
