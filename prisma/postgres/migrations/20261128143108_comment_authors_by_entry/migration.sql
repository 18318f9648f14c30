-- CreateIndex
CREATE INDEX "Comment_entryId_authorId_idx" ON "Comment"("entryId", "authorId");
