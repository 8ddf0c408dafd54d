-- Where a removal stands (docs/firewalls.md "Assignment sync states"): the worker records each failed attempt of
-- an unassign's removal job and when BullMQ runs the next one, so DELETE of the policy or firewall can say "attempt
-- n of N failed (last error), next attempt at …" instead of "unassign it first" while the removal retries.
ALTER TABLE "policy_assignments" ADD COLUMN "removal_attempts" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "policy_assignments" ADD COLUMN "next_attempt_at" TIMESTAMPTZ(3);
