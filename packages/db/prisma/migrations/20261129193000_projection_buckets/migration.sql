-- The projection backlog in buckets (docs/reliability.md "Asset projection"): each marker records its asset's bucket
-- (a hash of mode and fingerprint, computed by the intake), and projectors on different replicas claim different
-- buckets at once under per-bucket advisory locks, each applying its bucket in seq order. Markers pending at this
-- migration go to bucket 0, which keeps their order among themselves.
ALTER TABLE "signal_projections" ADD COLUMN "bucket" INTEGER NOT NULL DEFAULT 0;
-- The claim's index: a loose scan finds each bucket's oldest pending marker, then the bucket's markers in seq order.
-- Partial: set-aside markers (failed_at) are never claimed.
CREATE INDEX "signal_projections_bucket_seq_idx" ON "signal_projections"("bucket", "seq") WHERE "failed_at" IS NULL;
