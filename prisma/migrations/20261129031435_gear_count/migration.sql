-- How many pieces of gear each person keeps, moved by triggers: an athlete's page, read on every view,
-- reads their gear only when there is some (most people keep none). Added in place: a table rebuild
-- would drop "Person"'s revision and search triggers.
ALTER TABLE "Person" ADD COLUMN "gearCount" INTEGER NOT NULL DEFAULT 0;

UPDATE "Person" SET "gearCount" = (SELECT count(*) FROM "Gear" WHERE "ownerId" = "Person"."id");

CREATE TRIGGER "Gear_count_insert" AFTER INSERT ON "Gear"
BEGIN
    UPDATE "Person" SET "gearCount" = "gearCount" + 1 WHERE "id" = NEW."ownerId";
END;
CREATE TRIGGER "Gear_count_delete" AFTER DELETE ON "Gear"
BEGIN
    UPDATE "Person" SET "gearCount" = "gearCount" - 1 WHERE "id" = OLD."ownerId";
END;
