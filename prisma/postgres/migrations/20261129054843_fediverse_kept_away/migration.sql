-- CreateTable
CREATE TABLE "RemoteKeptAway" (
    "id" SERIAL NOT NULL,
    "personId" INTEGER NOT NULL,
    "actorId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RemoteKeptAway_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RemoteKeptAway_actorId_idx" ON "RemoteKeptAway"("actorId");

-- CreateIndex
CREATE UNIQUE INDEX "RemoteKeptAway_personId_actorId_kind_key" ON "RemoteKeptAway"("personId", "actorId", "kind");

-- AddForeignKey
ALTER TABLE "RemoteKeptAway" ADD CONSTRAINT "RemoteKeptAway_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RemoteKeptAway" ADD CONSTRAINT "RemoteKeptAway_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "RemoteActor"("id") ON DELETE CASCADE ON UPDATE CASCADE;
