-- A category import re-syncs every tenant's policies whose rules name a changed AI category
-- (docs/firewalls.md "Category data"): `categories && $1` across all rules uses this index, not a scan.
CREATE INDEX "url_filter_rules_categories_idx" ON "url_filter_rules" USING GIN ("categories");
