// reviewdog's Diagnostic (one line of rdjsonl), as its protocol buffer `reviewdog.rdf.Diagnostic`
// (reviewdog/reviewdog, proto/rdf/reviewdog.proto) defines it, written here as a JSON schema of our
// own. Stricter than the schema reviewdog generates from that file, which allows any extra field
// and requires none: here a field reviewdog does not define fails, so a misspelt one is caught.

const position = {
  type: 'object',
  additionalProperties: false,
  properties: { line: { type: 'integer', minimum: 1 }, column: { type: 'integer', minimum: 1 } },
  required: ['line'],
};

const range = {
  type: 'object',
  additionalProperties: false,
  properties: { start: position, end: position },
  required: ['start'],
};

const location = {
  type: 'object',
  additionalProperties: false,
  properties: { path: { type: 'string', minLength: 1 }, range },
  required: ['path'],
};

const named = {
  type: 'object',
  additionalProperties: false,
  properties: { name: { type: 'string' }, url: { type: 'string' } },
};

export const RDJSON_DIAGNOSTIC_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    message: { type: 'string', minLength: 1 },
    location,
    severity: { enum: ['UNKNOWN_SEVERITY', 'ERROR', 'WARNING', 'INFO'] },
    source: named,
    code: {
      type: 'object',
      additionalProperties: false,
      properties: { value: { type: 'string' }, url: { type: 'string' } },
    },
    suggestions: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        properties: { range, text: { type: 'string' } },
        required: ['range', 'text'],
      },
    },
    original_output: { type: 'string' },
    related_locations: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, properties: { message: { type: 'string' }, location } },
    },
  },
  required: ['message', 'location'],
};
