-- Outbox dead letter (docs/reliability.md "Outbox relay"): a row the relay cannot turn into a job (a payload
-- its job schema refuses, an unknown kind) is set aside with its error instead of failing its whole group on
-- every pass. Dead-lettered rows are skipped by the relay and kept for an operator.

-- AlterTable
ALTER TABLE "outbox" ADD COLUMN "dead_lettered_at" TIMESTAMPTZ(3);
