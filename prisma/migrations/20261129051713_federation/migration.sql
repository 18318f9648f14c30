-- Written by hand: Prisma would redefine "Person" (copy, drop, rename), which drops its triggers
-- (db/kept-stats.ts, db/entry-documents.ts). Adding the columns keeps them.

-- CreateTable
CREATE TABLE "FederationKey" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "personId" INTEGER NOT NULL,
    "algorithm" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "privateKey" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "FederationKey_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "FederationKv" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "value" TEXT NOT NULL,
    "expiresAt" DATETIME
);

-- CreateTable
CREATE TABLE "FederationJob" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "RemoteActor" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "uri" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "name" TEXT,
    "url" TEXT,
    "inbox" TEXT NOT NULL,
    "sharedInbox" TEXT,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "RemoteFollower" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "personId" INTEGER NOT NULL,
    "actorId" INTEGER NOT NULL,
    "followId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RemoteFollower_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RemoteFollower_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "RemoteActor" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RemoteFollowing" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "personId" INTEGER NOT NULL,
    "actorId" INTEGER NOT NULL,
    "followId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RemoteFollowing_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RemoteFollowing_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "RemoteActor" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RemotePost" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "actorId" INTEGER NOT NULL,
    "uri" TEXT NOT NULL,
    "url" TEXT,
    "text" TEXT NOT NULL,
    "publishedAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "RemotePost_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "RemoteActor" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RemoteReaction" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "entryId" INTEGER NOT NULL,
    "actorId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "activityId" TEXT NOT NULL,
    "text" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RemoteReaction_entryId_fkey" FOREIGN KEY ("entryId") REFERENCES "Entry" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RemoteReaction_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "RemoteActor" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "FederatedEntry" (
    "entryId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "personId" INTEGER NOT NULL,
    "sentAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "BlockedInstance" (
    "host" TEXT NOT NULL PRIMARY KEY,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- AlterTable
ALTER TABLE "Person" ADD COLUMN "fediverseOptOut" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Person" ADD COLUMN "fediverseAutoAccept" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE UNIQUE INDEX "FederationKey_personId_algorithm_key" ON "FederationKey"("personId", "algorithm");

-- CreateIndex
CREATE INDEX "FederationKv_expiresAt_idx" ON "FederationKv"("expiresAt");

-- CreateIndex
CREATE INDEX "FederationJob_status_nextAttemptAt_idx" ON "FederationJob"("status", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "RemoteActor_uri_key" ON "RemoteActor"("uri");

-- CreateIndex
CREATE INDEX "RemoteActor_host_idx" ON "RemoteActor"("host");

-- CreateIndex
CREATE INDEX "RemoteFollower_personId_status_createdAt_idx" ON "RemoteFollower"("personId", "status", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "RemoteFollower_personId_actorId_key" ON "RemoteFollower"("personId", "actorId");

-- CreateIndex
CREATE UNIQUE INDEX "RemoteFollowing_followId_key" ON "RemoteFollowing"("followId");

-- CreateIndex
CREATE INDEX "RemoteFollowing_actorId_idx" ON "RemoteFollowing"("actorId");

-- CreateIndex
CREATE UNIQUE INDEX "RemoteFollowing_personId_actorId_key" ON "RemoteFollowing"("personId", "actorId");

-- CreateIndex
CREATE UNIQUE INDEX "RemotePost_uri_key" ON "RemotePost"("uri");

-- CreateIndex
CREATE INDEX "RemotePost_actorId_publishedAt_idx" ON "RemotePost"("actorId", "publishedAt");

-- CreateIndex
CREATE UNIQUE INDEX "RemoteReaction_activityId_key" ON "RemoteReaction"("activityId");

-- CreateIndex
CREATE INDEX "RemoteReaction_entryId_kind_createdAt_idx" ON "RemoteReaction"("entryId", "kind", "createdAt");
