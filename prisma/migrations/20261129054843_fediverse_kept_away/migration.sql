-- CreateTable
CREATE TABLE "RemoteKeptAway" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "personId" INTEGER NOT NULL,
    "actorId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RemoteKeptAway_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RemoteKeptAway_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "RemoteActor" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "RemoteKeptAway_actorId_idx" ON "RemoteKeptAway"("actorId");

-- CreateIndex
CREATE UNIQUE INDEX "RemoteKeptAway_personId_actorId_kind_key" ON "RemoteKeptAway"("personId", "actorId", "kind");
