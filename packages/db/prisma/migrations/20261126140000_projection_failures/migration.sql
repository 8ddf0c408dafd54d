-- A projection that fails on its data (docs/reliability.md "Asset projection", "A signal that cannot be applied")
-- is retried alone; after PROJECTION_MAX_ATTEMPTS it is set aside (failed_at, error) so it cannot hold back the
-- signals accepted after it. The signal itself stays stored; an operator re-queues it by clearing failed_at.
ALTER TABLE "signal_projections" ADD COLUMN "attempts" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "signal_projections" ADD COLUMN "failed_at" TIMESTAMPTZ(3);
ALTER TABLE "signal_projections" ADD COLUMN "error" TEXT;
