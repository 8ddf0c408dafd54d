-- Admin console sessions bound to the admin token they were opened with (docs/security.md "Console sessions and
-- the admin token"): the HMAC of that token, checked on every request, so a rotation of ADMIN_API_TOKEN ends them.
-- Admin sessions opened before this column existed have none and end at their next request.
ALTER TABLE "console_sessions" ADD COLUMN "admin_token_hmac" TEXT;
