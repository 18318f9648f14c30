-- CreateIndex
CREATE INDEX "Person_photoUrl_idx" ON "Person"("photoUrl");
