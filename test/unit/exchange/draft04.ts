// The vendored schemas (SARIF 2.1.0 from OASIS, reviewdog's Diagnostic) are JSON Schema draft-04,
// which Ajv 8 does not read as such. Neither uses what changed after draft-04 (a boolean
// exclusiveMinimum or exclusiveMaximum) except `id`, so each is checked by Ajv's draft-07 class
// with `id` renamed `$id`: the same rules, read by the same validator. A test below keeps this true.

import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'fs';
import { join } from 'path';

export const FIXTURES = join(__dirname, '../../fixtures/exchange');

/** Keywords whose meaning changed after draft-04: a schema holding one cannot be read as draft-07. */
export const CHANGED_SINCE_DRAFT_04 = ['exclusiveMinimum', 'exclusiveMaximum'];

export function draft04Schema(path: string): Record<string, unknown> {
  const { $schema, id, ...schema } = JSON.parse(readFileSync(join(FIXTURES, path), 'utf8')) as Record<string, unknown>;
  if ($schema !== 'http://json-schema.org/draft-04/schema#') throw new Error(`${path} is not a draft-04 schema`);
  return id === undefined ? schema : { $id: id, ...schema };
}

export function validatorOf(path: string): ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(draft04Schema(path));
}
