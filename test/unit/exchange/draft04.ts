// The SARIF 2.1.0 schema comes from a package (@microsoft/jest-sarif, pinned by the lockfile), so
// no copy of it lives in this repository. It is JSON Schema draft-04, which Ajv 8 does not read as
// such. It uses nothing that changed after draft-04 (a boolean exclusiveMinimum or
// exclusiveMaximum) except `id`, so it is checked by Ajv's draft-07 class with `id` renamed `$id`:
// the same rules, read by the same validator. A test keeps this true.

import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'fs';
import { dirname, join } from 'path';

export const FIXTURES = join(__dirname, '../../fixtures/exchange');

/** The SARIF 2.1.0 schema (its final "rtm.5" text), as the package installs it. */
export const SARIF_SCHEMA_FILE = join(
  dirname(require.resolve('@microsoft/jest-sarif/package.json')),
  'lib/schemas/sarif-2.1.0-rtm.5.json',
);

/** Keywords whose meaning changed after draft-04: a schema holding one cannot be read as draft-07. */
export const CHANGED_SINCE_DRAFT_04 = ['exclusiveMinimum', 'exclusiveMaximum'];

export function draft04Schema(file: string): Record<string, unknown> {
  const { $schema, id, ...schema } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  if ($schema !== 'http://json-schema.org/draft-04/schema#') throw new Error(`${file} is not a draft-04 schema`);
  return id === undefined ? schema : { $id: id, ...schema };
}

/**
 * A validator for `schema`, every error kept. Patterns are read as JavaScript reads them without
 * the `u` flag: the rtm.5 text's language pattern has a stray `]`, which only unicode mode refuses
 * (the OASIS errata removed it), and it means the same either way.
 */
export function validatorOf(schema: Record<string, unknown>): ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(schema);
}
