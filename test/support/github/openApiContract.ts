// GitHub's REST API as GitHub describes it (@octokit/openapi's api.github.com.json, pinned by the
// lockfile): checks a request and a response of one operation against that description with ajv.
// The description is OpenAPI 3.0, so its schemas are converted to JSON Schema first: `nullable`
// becomes a null type, and a request body's objects allow only the properties they declare, so a
// field GitHub does not document fails the test instead of passing unseen.

import Ajv, { type ValidateFunction } from 'ajv';
import { readFileSync } from 'fs';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required?: boolean;
  readonly schema: Json;
}

export interface Operation {
  readonly method: string;
  /** The path as the description writes it, e.g. /repos/{owner}/{repo}/pulls. */
  readonly template: string;
  readonly operationId: string;
}

export class OpenApiContract {
  private readonly spec: Json;
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();

  /** `specFile` is given where this module runs bundled, away from node_modules (the end-to-end suite). */
  constructor(specFile = require.resolve('@octokit/openapi/generated/api.github.com.json')) {
    this.spec = JSON.parse(readFileSync(specFile, 'utf8'));
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, logger: false });
    // GitHub's descriptions name these formats; the ones checked here are those a fake answer could get wrong.
    this.ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/);
    this.ajv.addFormat('uri', (value: string) => /^[a-z][a-z0-9+.-]*:\S+$/i.test(value));
    for (const loose of [
      'uri-template',
      'email',
      'date',
      'hostname',
      'ipv4',
      'ipv6',
      'uuid',
      'binary',
      'repo.nwo',
      'ssh-key',
      'ssh-key fingerprint',
      'int32',
      'int64',
      'float',
    ]) {
      this.ajv.addFormat(loose, true);
    }
    const schemas = Object.fromEntries(
      Object.entries(this.spec.components.schemas).map(([name, schema]) => [name, convert(schema, false)]),
    );
    this.ajv.addSchema({ $id: 'gh', components: { schemas } });
  }

  /** The operation the description has for this method and path template; throws when it has none. */
  operation(method: string, template: string): Operation {
    const op = this.spec.paths[template]?.[method.toLowerCase()];
    if (!op) throw new Error(`GitHub's description has no ${method} ${template}`);
    return { method: method.toUpperCase(), template, operationId: op.operationId };
  }

  /** What in a request the description does not allow: empty when it allows all of it. */
  checkRequest(
    operation: Operation,
    pathParams: Record<string, string>,
    query: URLSearchParams,
    body: unknown,
  ): string[] {
    const op = this.op(operation);
    const problems: string[] = [];
    const params: Parameter[] = (op.parameters ?? []).map((p: Json) => this.deref(p));
    for (const param of params.filter((p) => p.in === 'path')) {
      problems.push(
        ...this.checkValue(
          `${operation.operationId} path ${param.name}`,
          param.schema,
          coerce(pathParams[param.name], param.schema),
        ),
      );
    }
    const queryParams = new Map(params.filter((p) => p.in === 'query').map((p) => [p.name, p]));
    for (const name of new Set(query.keys())) {
      const param = queryParams.get(name);
      if (!param) problems.push(`${operation.operationId}: query parameter "${name}" is not in GitHub's description`);
      else
        problems.push(
          ...this.checkValue(
            `${operation.operationId} query ${name}`,
            param.schema,
            coerce(query.get(name) ?? '', param.schema),
          ),
        );
    }
    for (const param of queryParams.values()) {
      if (param.required && !query.has(param.name))
        problems.push(`${operation.operationId}: required query parameter "${param.name}" is missing`);
    }
    const requestBody = op.requestBody ? this.deref(op.requestBody) : undefined;
    if (body === undefined) {
      if (requestBody?.required) problems.push(`${operation.operationId}: the request needs a body`);
    } else if (!requestBody) {
      problems.push(`${operation.operationId}: the description takes no request body`);
    } else {
      const schema = requestBody.content?.['application/json']?.schema;
      problems.push(...this.checkValue(`${operation.operationId} request body`, convert(schema, true), body, true));
    }
    return problems;
  }

  /**
   * What in a response the description does not allow. A status the operation does not list (a
   * rate limit is documented once for the whole API, not per operation) is checked as GitHub's
   * basic error.
   */
  checkResponse(operation: Operation, status: number, body: unknown): string[] {
    const op = this.op(operation);
    const declared = op.responses[String(status)];
    if (!declared) {
      if (status < 400) return [`${operation.operationId}: status ${status} is not in GitHub's description`];
      return this.checkValue(
        `${operation.operationId} ${status} (basic-error)`,
        { $ref: 'gh#/components/schemas/basic-error' },
        body,
      );
    }
    const schema = this.deref(declared).content?.['application/json']?.schema;
    if (!schema)
      return body === undefined || body === ''
        ? []
        : [`${operation.operationId}: status ${status} has no body in GitHub's description`];
    return this.checkValue(`${operation.operationId} ${status} response`, convert(schema, false), body);
  }

  /** One of GitHub's own example answers, to build a fake answer from. */
  example(name: string): Json {
    const example = this.spec.components.examples[name];
    if (!example) throw new Error(`GitHub's description has no example ${name}`);
    return structuredClone(example.value);
  }

  private op(operation: Operation): Json {
    return this.spec.paths[operation.template][operation.method.toLowerCase()];
  }

  private deref(node: Json): Json {
    let current = node;
    for (let hops = 0; current?.$ref && hops < 10; hops++) {
      const parts = String(current.$ref).replace(/^#\//, '').split('/');
      current = parts.reduce((at: Json, part: string) => at?.[part], this.spec);
    }
    return current;
  }

  private checkValue(where: string, schema: Json, value: unknown, fresh = false): string[] {
    const key = JSON.stringify(schema);
    let validate = fresh ? undefined : this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.compiled.set(key, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (e) =>
          `${where}: ${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}`,
      );
  }
}

/**
 * An OpenAPI 3.0 schema as JSON Schema for ajv: `nullable` as a null type, refs into the
 * description's components, and (for what a client sends) no property the schema does not declare.
 */
function convert(schema: Json, closed: boolean): Json {
  if (Array.isArray(schema)) return schema.map((s) => convert(s, closed));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string') out.$ref = value.replace(/^#\//, 'gh#/');
    else if (key === 'properties' || key === 'patternProperties' || key === 'definitions') {
      out[key] = Object.fromEntries(Object.entries(value as object).map(([name, sub]) => [name, convert(sub, closed)]));
    } else if (key === 'example' || key === 'examples' || key === 'description' || key.startsWith('x-')) continue;
    else out[key] = typeof value === 'object' ? convert(value, closed) : value;
  }
  if (schema.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (out.enum) out.enum = [...out.enum, null];
    else return { anyOf: [out, { type: 'null' }] };
    if (out.enum && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  if (closed && out.properties && out.additionalProperties === undefined && !out.allOf && !out.anyOf && !out.oneOf)
    out.additionalProperties = false;
  return out;
}

/** A path or query string as the type its schema says, so that "30" is checked as the integer 30. */
function coerce(text: string | undefined, schema: Json): unknown {
  if (text === undefined) return undefined;
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}
