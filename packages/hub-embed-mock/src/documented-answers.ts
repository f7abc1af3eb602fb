/**
 * The answers openapi.json documents for a receiver of the service's webhooks (`webhooks.<event>.post
 * .responses`): certify judges the receiver's answers to the simulator's deliveries by them, so the file
 * and the grader cannot say different things. The schemas there are small (an object of booleans), and
 * the simulator runs in any tab without a validator library: this checks the JSON Schema keywords those
 * schemas use and refuses, when the module loads, a file whose answer schemas use any other.
 */
import openapi from '../../../openapi.json' with { type: 'json' };

interface AnswerSchema {
  $ref?: string;
  type?: 'object' | 'boolean' | 'string' | 'number' | 'integer' | 'null';
  required?: string[];
  properties?: Record<string, AnswerSchema>;
  description?: string;
}
interface DocumentedResponse {
  description: string;
  content?: { 'application/json'?: { schema: AnswerSchema } };
}

const KNOWN_KEYWORDS = new Set(['$ref', 'type', 'required', 'properties', 'description']);

function schemaAt(reference: string): AnswerSchema {
  let node: unknown = openapi;
  for (const part of reference.slice(2).split('/')) node = (node as Record<string, unknown>)[part];
  return node as AnswerSchema;
}

/** Each event's documented answers, by status key ('200', '2XX', '403'), their schemas checked once. */
const DOCUMENTED = new Map(
  Object.entries(openapi.webhooks).map(([event, item]) => {
    const responses = (item.post as { responses: Record<string, DocumentedResponse> }).responses;
    const check = (schema: AnswerSchema): void => {
      const unknown = Object.keys(schema).filter((keyword) => !KNOWN_KEYWORDS.has(keyword));
      if (unknown.length > 0)
        throw new Error(`openapi.json: the ${event} answer uses ${unknown.join(', ')}, which certify cannot check.`);
      if (schema.$ref) check(schemaAt(schema.$ref));
      Object.values(schema.properties ?? {}).forEach(check);
    };
    for (const response of Object.values(responses)) {
      const schema = response.content?.['application/json']?.schema;
      if (schema) check(schema);
    }
    return [event, responses] as const;
  }),
);

function mismatch(schema: AnswerSchema, value: unknown, at: string): string | undefined {
  if (schema.$ref) return mismatch(schemaAt(schema.$ref), value, at);
  const actual =
    value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
  const wanted = schema.type;
  if (wanted !== undefined && wanted !== actual && !(wanted === 'number' && actual === 'integer'))
    return `${at} is ${actual === 'string' ? JSON.stringify(value) : actual}, not ${wanted}`;
  if (schema.type !== 'object') return undefined;
  const fields = value as Record<string, unknown>;
  const missing = (schema.required ?? []).find((name) => !(name in fields));
  if (missing !== undefined) return `${at} has no ${missing}`;
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (!(name in fields)) continue;
    const problem = mismatch(property, fields[name], `${at}.${name}`);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Why an answer to a delivery of `event` is not one openapi.json documents for it, or undefined when it
 * is: the status has an entry of its own or of its class (2XX), and a JSON body where one is documented.
 */
export function undocumentedAnswer(event: string, status: number | undefined, body: string): string | undefined {
  const responses = DOCUMENTED.get(event);
  if (!responses) return `openapi.json documents no event ${event}`;
  const documented = Object.keys(responses).join(', ');
  if (status === undefined) return `no answer; openapi.json documents ${documented} for ${event}`;
  const statusClass = `${Math.floor(status / 100)}XX`;
  const response = responses[String(status)] ?? responses[statusClass];
  if (!response) return `answered ${status}; openapi.json documents ${documented} for ${event}`;
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return `the ${status} answer to ${event} is not JSON; openapi.json documents ${status} with a JSON body`;
  }
  const problem = mismatch(schema, value, 'the body');
  return problem && `the ${status} answer to ${event} is not as openapi.json documents it: ${problem}`;
}
