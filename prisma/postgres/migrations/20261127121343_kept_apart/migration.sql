-- Who is kept apart from anyone (issue 45): a count on each person of the blocks and mutes they are in,
-- as blocker, blocked or muter, moved by triggers. The streams leave people out, and a request reads its
-- viewer's blocks, only for a viewer whose count is not 0: everyone else's reads cost what they did.
ALTER TABLE "Person" ADD COLUMN "keptApart" INTEGER NOT NULL DEFAULT 0;

UPDATE "Person" SET "keptApart" =
    (SELECT count(*) FROM "Block" WHERE "blockerId" = "Person"."id" OR "blockedId" = "Person"."id")
  + (SELECT count(*) FROM "Mute" WHERE "muterId" = "Person"."id");

CREATE FUNCTION "milepost_block_kept_apart"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE "Person" SET "keptApart" = "keptApart" + 1 WHERE "id" IN (NEW."blockerId", NEW."blockedId");
    ELSE
        UPDATE "Person" SET "keptApart" = "keptApart" - 1 WHERE "id" IN (OLD."blockerId", OLD."blockedId");
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER "Block_kept_apart" AFTER INSERT OR DELETE ON "Block" FOR EACH ROW EXECUTE FUNCTION "milepost_block_kept_apart"();

CREATE FUNCTION "milepost_mute_kept_apart"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE "Person" SET "keptApart" = "keptApart" + 1 WHERE "id" = NEW."muterId";
    ELSE
        UPDATE "Person" SET "keptApart" = "keptApart" - 1 WHERE "id" = OLD."muterId";
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER "Mute_kept_apart" AFTER INSERT OR DELETE ON "Mute" FOR EACH ROW EXECUTE FUNCTION "milepost_mute_kept_apart"();
