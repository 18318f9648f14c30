-- AlterTable
ALTER TABLE "Person" ADD COLUMN     "fediverseAutoAccept" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "fediverseOptOut" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "FederationKey" (
    "id" SERIAL NOT NULL,
    "personId" INTEGER NOT NULL,
    "algorithm" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "privateKey" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FederationKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FederationKv" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3),

    CONSTRAINT "FederationKv_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "FederationJob" (
    "id" SERIAL NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FederationJob_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RemoteActor" (
    "id" SERIAL NOT NULL,
    "uri" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "name" TEXT,
    "url" TEXT,
    "inbox" TEXT NOT NULL,
    "sharedInbox" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RemoteActor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RemoteFollower" (
    "id" SERIAL NOT NULL,
    "personId" INTEGER NOT NULL,
    "actorId" INTEGER NOT NULL,
    "followId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RemoteFollower_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RemoteFollowing" (
    "id" SERIAL NOT NULL,
    "personId" INTEGER NOT NULL,
    "actorId" INTEGER NOT NULL,
    "followId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RemoteFollowing_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RemotePost" (
    "id" SERIAL NOT NULL,
    "actorId" INTEGER NOT NULL,
    "uri" TEXT NOT NULL,
    "url" TEXT,
    "text" TEXT NOT NULL,
    "publishedAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RemotePost_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RemoteReaction" (
    "id" SERIAL NOT NULL,
    "entryId" INTEGER NOT NULL,
    "actorId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "activityId" TEXT NOT NULL,
    "text" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RemoteReaction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FederatedEntry" (
    "entryId" INTEGER NOT NULL,
    "personId" INTEGER NOT NULL,
    "sentAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FederatedEntry_pkey" PRIMARY KEY ("entryId")
);

-- CreateTable
CREATE TABLE "BlockedInstance" (
    "host" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BlockedInstance_pkey" PRIMARY KEY ("host")
);

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

-- AddForeignKey
ALTER TABLE "FederationKey" ADD CONSTRAINT "FederationKey_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RemoteFollower" ADD CONSTRAINT "RemoteFollower_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RemoteFollower" ADD CONSTRAINT "RemoteFollower_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "RemoteActor"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RemoteFollowing" ADD CONSTRAINT "RemoteFollowing_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RemoteFollowing" ADD CONSTRAINT "RemoteFollowing_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "RemoteActor"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RemotePost" ADD CONSTRAINT "RemotePost_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "RemoteActor"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RemoteReaction" ADD CONSTRAINT "RemoteReaction_entryId_fkey" FOREIGN KEY ("entryId") REFERENCES "Entry"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RemoteReaction" ADD CONSTRAINT "RemoteReaction_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "RemoteActor"("id") ON DELETE CASCADE ON UPDATE CASCADE;
