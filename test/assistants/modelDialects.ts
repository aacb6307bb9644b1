// The three model APIs the assistants speak, reduced to what the fake model needs: which tools a
// request offers, which tool results it carries back, and how to write one answer (some text, or
// one tool call) in each API's own shape, streamed as server-sent events when the request asks.
// Anthropic's Messages API (Claude Code), Gemini's generateContent (Gemini CLI) and OpenAI's
// Responses API (Codex CLI).

export type Dialect = 'anthropic' | 'gemini' | 'responses';

/** What the model says in one turn. */
export type Answer =
  | { readonly text: string }
  | { readonly call: { readonly id: string; readonly name: string; readonly args: Record<string, unknown> } };

/** A tool's result as the assistant sent it back: `id` is the call's id where the API has one. */
export interface ToolResultSent {
  readonly id?: string;
  readonly name?: string;
  readonly text: string;
}

export interface Reply {
  readonly contentType: string;
  readonly body: string;
}

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The dialect a request is in, from its path; undefined for anything else (model lists, token counts). */
export function dialectOf(path: string): Dialect | undefined {
  if (/\/messages(\?|$)/.test(path)) return 'anthropic';
  if (/:(stream)?generateContent(\?|$)/i.test(path)) return 'gemini';
  if (/\/responses(\?|$)/.test(path)) return 'responses';
  return undefined;
}

/** The names of the tools the request offers the model. */
export function offeredTools(dialect: Dialect, body: Json): string[] {
  const tools: Json[] = Array.isArray(body?.tools) ? body.tools : [];
  switch (dialect) {
    case 'anthropic':
      return tools.map((tool) => tool?.name).filter(isString);
    case 'gemini':
      return tools
        .flatMap((tool) => (Array.isArray(tool?.functionDeclarations) ? tool.functionDeclarations : []))
        .map((f: Json) => f?.name)
        .filter(isString);
    case 'responses':
      // Codex's own tool search is a tool of type "tool_search", with no name. The tools it finds
      // come back in the input, as namespaces (one per MCP server): offered from then on, named
      // "<namespace>/<tool>".
      return [
        ...tools.map((tool) => tool?.name ?? tool?.type),
        ...list(body?.input)
          .filter((item) => item?.type === 'tool_search_output')
          .flatMap((item) => list(item.tools))
          .flatMap((namespace) => list(namespace?.tools).map((tool) => `${namespace.name}/${tool?.name}`)),
      ].filter(isString);
  }
}

/** Every tool result the request carries. */
export function toolResults(dialect: Dialect, body: Json): ToolResultSent[] {
  switch (dialect) {
    case 'anthropic':
      return list(body?.messages)
        .flatMap((message) => list(message?.content))
        .filter((block) => block?.type === 'tool_result')
        .map((block) => ({ id: block.tool_use_id, text: textOf(block.content) }));
    case 'gemini':
      return list(body?.contents)
        .flatMap((content) => list(content?.parts))
        .filter((part) => part?.functionResponse)
        .map((part) => ({
          id: part.functionResponse.id,
          name: part.functionResponse.name,
          text: JSON.stringify(part.functionResponse.response),
        }));
    case 'responses':
      return list(body?.input)
        .filter((item) => item?.type === 'function_call_output' || item?.type === 'tool_search_output')
        .map((item) => ({
          id: item.call_id,
          text: item.type === 'tool_search_output' ? JSON.stringify(item.tools) : textOf(item.output),
        }));
  }
}

/** The answer as this API writes it. */
export function reply(dialect: Dialect, answer: Answer, model: string, stream: boolean): Reply {
  switch (dialect) {
    case 'anthropic':
      return stream ? sse(anthropicEvents(answer, model)) : json(anthropicMessage(answer, model));
    case 'gemini':
      // Gemini streams whole responses, one per event.
      return stream ? sse([['', geminiResponse(answer, model)]]) : json(geminiResponse(answer, model));
    case 'responses':
      return stream ? sse(responsesEvents(answer, model)) : json(responsesObject(answer, model, 'completed'));
  }
}

// ---- Anthropic ------------------------------------------------------------------------------

function anthropicBlock(answer: Answer): Json {
  return 'call' in answer
    ? { type: 'tool_use', id: answer.call.id, name: answer.call.name, input: answer.call.args }
    : { type: 'text', text: answer.text };
}

function anthropicMessage(answer: Answer, model: string): Json {
  return {
    id: `msg_${Date.now()}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [anthropicBlock(answer)],
    stop_reason: 'call' in answer ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  };
}

function anthropicEvents(answer: Answer, model: string): Array<[string, Json]> {
  const message = anthropicMessage(answer, model);
  const block = anthropicBlock(answer);
  const start = 'call' in answer ? { ...block, input: {} } : { ...block, text: '' };
  const delta =
    'call' in answer
      ? { type: 'input_json_delta', partial_json: JSON.stringify(answer.call.args) }
      : { type: 'text_delta', text: answer.text };
  return [
    ['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: start }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    [
      'message_delta',
      {
        type: 'message_delta',
        delta: { stop_reason: message.stop_reason, stop_sequence: null },
        usage: { output_tokens: 10 },
      },
    ],
    ['message_stop', { type: 'message_stop' }],
  ];
}

// ---- Gemini ---------------------------------------------------------------------------------

function geminiResponse(answer: Answer, model: string): Json {
  const part =
    'call' in answer
      ? { functionCall: { id: answer.call.id, name: answer.call.name, args: answer.call.args } }
      : { text: answer.text };
  return {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
    modelVersion: model,
  };
}

// ---- OpenAI Responses -----------------------------------------------------------------------

function responsesItem(answer: Answer): Json {
  if ('call' in answer && answer.call.name === 'tool_search') {
    // The client-side tool search: its arguments are an object, not a string.
    return {
      type: 'tool_search_call',
      id: `tsc_${answer.call.id}`,
      call_id: answer.call.id,
      execution: 'client',
      arguments: answer.call.args,
      status: 'completed',
    };
  }
  if (!('call' in answer)) return responsesMessage(answer.text);
  const [namespace, name] = answer.call.name.includes('/')
    ? answer.call.name.split('/')
    : [undefined, answer.call.name];
  return {
    type: 'function_call',
    id: `fc_${answer.call.id}`,
    call_id: answer.call.id,
    ...(namespace ? { namespace } : {}),
    name,
    arguments: JSON.stringify(answer.call.args),
    status: 'completed',
  };
}

function responsesMessage(text: string): Json {
  return {
    type: 'message',
    id: `msg_${Date.now()}`,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}

function responsesObject(answer: Answer, model: string, status: string): Json {
  return {
    id: 'resp_fake',
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model,
    status,
    output: status === 'completed' ? [responsesItem(answer)] : [],
    usage: {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 10,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 20,
    },
  };
}

function responsesEvents(answer: Answer, model: string): Array<[string, Json]> {
  const item = responsesItem(answer);
  return [
    ['response.created', { type: 'response.created', response: responsesObject(answer, model, 'in_progress') }],
    ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item }],
    ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
    ['response.completed', { type: 'response.completed', response: responsesObject(answer, model, 'completed') }],
  ];
}

// ---- shared ---------------------------------------------------------------------------------

function sse(events: Array<[string, Json]>): Reply {
  const body = events
    .map(([event, data]) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`)
    .join('');
  return { contentType: 'text/event-stream', body };
}

function json(value: Json): Reply {
  return { contentType: 'application/json', body: JSON.stringify(value) };
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? value : [];
}

/** A tool result's text: a string, or the text blocks of a content list. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return list(content)
    .map((block) =>
      typeof block === 'string' ? block : typeof block?.text === 'string' ? block.text : JSON.stringify(block),
    )
    .join('\n');
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}
