-- Who is kept apart from anyone (issue 45): a count on each person of the blocks and mutes they are in,
-- as blocker, blocked or muter, moved by triggers. The streams leave people out, and a request reads its
-- viewer's blocks, only for a viewer whose count is not 0: everyone else's reads cost what they did.
-- The column is added in place (a table rebuild would drop "Person"'s revision and search triggers).
ALTER TABLE "Person" ADD COLUMN "keptApart" INTEGER NOT NULL DEFAULT 0;

UPDATE "Person" SET "keptApart" =
    (SELECT count(*) FROM "Block" WHERE "blockerId" = "Person"."id" OR "blockedId" = "Person"."id")
  + (SELECT count(*) FROM "Mute" WHERE "muterId" = "Person"."id");

CREATE TRIGGER "Block_kept_apart_insert" AFTER INSERT ON "Block"
BEGIN
    UPDATE "Person" SET "keptApart" = "keptApart" + 1 WHERE "id" IN (NEW."blockerId", NEW."blockedId");
END;
CREATE TRIGGER "Block_kept_apart_delete" AFTER DELETE ON "Block"
BEGIN
    UPDATE "Person" SET "keptApart" = "keptApart" - 1 WHERE "id" IN (OLD."blockerId", OLD."blockedId");
END;
CREATE TRIGGER "Mute_kept_apart_insert" AFTER INSERT ON "Mute"
BEGIN
    UPDATE "Person" SET "keptApart" = "keptApart" + 1 WHERE "id" = NEW."muterId";
END;
CREATE TRIGGER "Mute_kept_apart_delete" AFTER DELETE ON "Mute"
BEGIN
    UPDATE "Person" SET "keptApart" = "keptApart" - 1 WHERE "id" = OLD."muterId";
END;
