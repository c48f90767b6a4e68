-- Placeholder: filled in by the trust work (docs/security.md).
SELECT 1;
