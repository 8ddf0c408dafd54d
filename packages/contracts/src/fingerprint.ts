// Fingerprints as they enter the API (docs/security.md "Fingerprints are Unicode-normalised"). A fingerprint is
// an asset's key, compared byte for byte by Postgres, threat matching and suppression globs, while the console
// renders canonically equivalent strings (`café` composed or decomposed) identically. Every schema through which a
// fingerprint enters (signals, paths, look-ups, threats, triage, suppression globs) normalises it to NFC first, so
// equivalent spellings are one key and every length limit applies to what is stored.
import { NO_CONTROL } from './common';
import { z } from './zod';

export const FINGERPRINT_MAX_LENGTH = 512;

/** A string of fingerprint text (a key or a glob over keys), NFC-normalised before its limits are checked. */
export const zFingerprintText = (min: number, max: number) =>
  z.string().normalize('NFC').min(min).max(max).regex(NO_CONTROL, 'must not contain control characters');

export const ZFingerprint = zFingerprintText(1, FINGERPRINT_MAX_LENGTH).openapi({
  description: 'asset fingerprint (global asset key), normalised to Unicode NFC; URL-encode it in paths',
  example: 'sha256:9f2c…',
});
