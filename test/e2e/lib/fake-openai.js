// @ts-check
'use strict';

// A stand-in for OpenAI's API on 127.0.0.1, so that a workflow with an AI Agent runs offline
// and the same way every time. It plays a model that knows one move: asked with tools and no
// tool result for the user's last message yet, it calls the first function tool with arguments
// built from the tool's JSON schema; once the tool result is in the conversation, it answers
// with a message quoting the addresses found in that result. Both the Chat Completions API
// (`/chat/completions`) and the Responses API (`/responses`) are served, each plain or streamed
// (server-sent events), because the OpenAI Chat Model node picks one or the other by version
// and option; `GET /models` answers the editor's model list.

const crypto = require('node:crypto');
const http = require('node:http');
const { addSecret } = require('./redact');

const MODEL_LIST = ['gpt-4.1-mini', 'gpt-5-mini', 'gpt-4o-mini'];

/**
 * @typedef {object} FakeOpenAiScript
 * @property {Record<string, unknown>} [arguments] values for tool arguments, by property name;
 *   other properties get a value made from their schema (strings: the user's last message)
 * @property {string} [tool] the name of the tool to call (default: the first function tool)
 * @property {string} [answerPrefix] how the final answer starts
 *
 * @typedef {object} RecordedRequest
 * @property {string} method
 * @property {string} path
 * @property {'chat' | 'responses' | 'models' | 'other'} api
 * @property {boolean} authorized whether the request carried the fake's key
 * @property {boolean} stream
 * @property {any} body
 * @property {string[]} tools names of the function tools offered
 * @property {{name: string, arguments: Record<string, unknown>, callId: string} | undefined} toolCall what the fake answered with, if a tool call
 * @property {string | undefined} text what the fake answered with, if a message
 * @property {string[]} toolResults tool results the request carried
 */

/**
 * A string argument without a scripted value carries the user's request, as a model that
 * only passes the request on would.
 * @param {any} schema
 * @param {string} request
 */
function valueFor(schema, request) {
	const type = Array.isArray(schema?.type)
		? schema.type.find((/** @type {string} */ t) => t !== 'null')
		: schema?.type;
	if (Array.isArray(schema?.enum) && schema.enum.length) return schema.enum[0];
	if (schema?.default !== undefined) return schema.default;
	switch (type) {
		case 'number':
		case 'integer':
			return 1;
		case 'boolean':
			return false;
		case 'array':
			return [];
		case 'object':
			return {};
		default:
			return request;
	}
}

/**
 * Every property of the tool's schema gets a value, required or not: an n8n tool built from
 * `$fromAI(...)` marks them all required, and a real model fills what it is shown.
 * @param {any} parameters the tool's JSON schema
 * @param {Record<string, unknown>} given
 * @param {string} request the user's last message
 */
function argumentsFor(parameters, given, request) {
	/** @type {Record<string, unknown>} */
	const args = {};
	for (const [name, schema] of Object.entries(parameters?.properties ?? {})) {
		args[name] = Object.hasOwn(given, name) ? given[name] : valueFor(schema, request);
	}
	return args;
}

/** @param {unknown} content */
function textOf(content) {
	if (typeof content === 'string') return content;
	if (Array.isArray(content))
		return content
			.map((part) => (typeof part === 'string' ? part : (part?.text ?? part?.output ?? '')))
			.join('');
	return content === undefined || content === null ? '' : JSON.stringify(content);
}

/**
 * The conversation as both APIs carry it: the function tools offered, the user's last message
 * and the tool results given back since (earlier turns of a chat were answered already).
 * @param {'chat' | 'responses'} api
 * @param {any} body
 */
function readConversation(api, body) {
	const tools = (Array.isArray(body?.tools) ? body.tools : [])
		.filter((/** @type {any} */ t) => t?.type === 'function')
		.map((/** @type {any} */ t) => (api === 'chat' ? t.function : t))
		.filter((/** @type {any} */ t) => t && typeof t.name === 'string');
	/** @type {string[]} */
	let toolResults = [];
	let request = '';
	const conversation = api === 'chat' ? body?.messages : body?.input;
	for (const m of Array.isArray(conversation) ? conversation : []) {
		if (m?.role === 'user') {
			request = textOf(m.content);
			toolResults = [];
		} else if (m?.role === 'tool') toolResults.push(textOf(m.content));
		else if (m?.type === 'function_call_output') toolResults.push(textOf(m.output));
	}
	if (api === 'responses' && typeof body?.input === 'string') request = body.input;
	return { tools, toolResults, request };
}

/** @param {string} text */
function addressesIn(text) {
	const found = text.replace(/\\\//g, '/').match(/https?:\/\/[^\s"'<>\\)\]}]+/g) ?? [];
	return [...new Set(found)];
}

/** @param {string} prefix */
const newId = (prefix) => `${prefix}_${crypto.randomBytes(12).toString('hex')}`;

const usageChat = { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 };
const usageResponses = {
	input_tokens: 20,
	output_tokens: 10,
	total_tokens: 30,
	input_tokens_details: { cached_tokens: 0 },
	output_tokens_details: { reasoning_tokens: 0 },
};

/**
 * @param {http.ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 */
function sendJson(res, status, body) {
	const payload = Buffer.from(JSON.stringify(body));
	res.writeHead(status, {
		'content-type': 'application/json',
		'content-length': payload.length,
		'x-request-id': newId('req'),
	});
	res.end(payload);
}

/**
 * @param {http.ServerResponse} res
 * @param {{event?: string, data: unknown}[]} events
 * @param {boolean} done whether to close with `data: [DONE]`, as Chat Completions does
 */
function sendEvents(res, events, done) {
	res.writeHead(200, {
		'content-type': 'text/event-stream',
		'cache-control': 'no-cache',
		'x-request-id': newId('req'),
	});
	for (const e of events)
		res.write(`${e.event ? `event: ${e.event}\n` : ''}data: ${JSON.stringify(e.data)}\n\n`);
	if (done) res.write('data: [DONE]\n\n');
	res.end();
}

/**
 * @param {any} body
 * @param {{toolCall?: RecordedRequest['toolCall'], text?: string}} answer
 * @param {http.ServerResponse} res
 */
function answerChat(body, answer, res) {
	const id = newId('chatcmpl');
	const created = Math.floor(Date.now() / 1000);
	const model = String(body?.model ?? MODEL_LIST[0]);
	const toolCalls = answer.toolCall
		? [
				{
					id: answer.toolCall.callId,
					type: 'function',
					function: {
						name: answer.toolCall.name,
						arguments: JSON.stringify(answer.toolCall.arguments),
					},
				},
			]
		: undefined;
	const finish = toolCalls ? 'tool_calls' : 'stop';
	if (!body?.stream) {
		sendJson(res, 200, {
			id,
			object: 'chat.completion',
			created,
			model,
			choices: [
				{
					index: 0,
					message: {
						role: 'assistant',
						content: answer.text ?? null,
						tool_calls: toolCalls,
						refusal: null,
					},
					logprobs: null,
					finish_reason: finish,
				},
			],
			usage: usageChat,
		});
		return;
	}
	/** @param {any} delta @param {string | null} finishReason */
	const chunk = (delta, finishReason) => ({
		id,
		object: 'chat.completion.chunk',
		created,
		model,
		choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
	});
	/** @type {{event?: string, data: unknown}[]} */
	const events = [{ data: chunk({ role: 'assistant', content: toolCalls ? null : '' }, null) }];
	if (toolCalls)
		events.push({
			data: chunk({ tool_calls: toolCalls.map((c, index) => ({ index, ...c })) }, null),
		});
	else events.push({ data: chunk({ content: answer.text }, null) });
	events.push({ data: chunk({}, finish) });
	if (body.stream_options?.include_usage)
		events.push({
			data: { id, object: 'chat.completion.chunk', created, model, choices: [], usage: usageChat },
		});
	sendEvents(res, events, true);
}

/**
 * @param {any} body
 * @param {{toolCall?: RecordedRequest['toolCall'], text?: string}} answer
 * @param {http.ServerResponse} res
 */
function answerResponses(body, answer, res) {
	const id = newId('resp');
	const base = {
		id,
		object: 'response',
		created_at: Math.floor(Date.now() / 1000),
		model: String(body?.model ?? MODEL_LIST[0]),
		error: null,
		incomplete_details: null,
		instructions: body?.instructions ?? null,
		metadata: {},
		parallel_tool_calls: true,
		temperature: body?.temperature ?? 1,
		tool_choice: body?.tool_choice ?? 'auto',
		tools: body?.tools ?? [],
		top_p: body?.top_p ?? 1,
		text: { format: { type: 'text' } },
		user: null,
	};
	const item = answer.toolCall
		? {
				type: 'function_call',
				id: newId('fc'),
				call_id: answer.toolCall.callId,
				name: answer.toolCall.name,
				arguments: JSON.stringify(answer.toolCall.arguments),
				status: 'completed',
			}
		: {
				type: 'message',
				id: newId('msg'),
				role: 'assistant',
				status: 'completed',
				content: [{ type: 'output_text', text: answer.text ?? '', annotations: [] }],
			};
	const completed = {
		...base,
		status: 'completed',
		output: [item],
		output_text: answer.text ?? '',
		usage: usageResponses,
	};
	if (!body?.stream) {
		sendJson(res, 200, completed);
		return;
	}
	let seq = 0;
	/** @param {string} type @param {object} data */
	const ev = (type, data) => ({ event: type, data: { type, sequence_number: seq++, ...data } });
	const events = [
		ev('response.created', {
			response: { ...base, status: 'in_progress', output: [], usage: null },
		}),
	];
	if (item.type === 'function_call') {
		events.push(
			ev('response.output_item.added', {
				output_index: 0,
				item: { ...item, arguments: '', status: 'in_progress' },
			}),
		);
		events.push(
			ev('response.function_call_arguments.delta', {
				item_id: item.id,
				output_index: 0,
				delta: item.arguments,
			}),
		);
		events.push(
			ev('response.function_call_arguments.done', {
				item_id: item.id,
				output_index: 0,
				arguments: item.arguments,
			}),
		);
	} else {
		const part = { type: 'output_text', text: '', annotations: [] };
		events.push(
			ev('response.output_item.added', {
				output_index: 0,
				item: { ...item, status: 'in_progress', content: [] },
			}),
		);
		events.push(
			ev('response.content_part.added', {
				item_id: item.id,
				output_index: 0,
				content_index: 0,
				part,
			}),
		);
		events.push(
			ev('response.output_text.delta', {
				item_id: item.id,
				output_index: 0,
				content_index: 0,
				delta: answer.text ?? '',
			}),
		);
		events.push(
			ev('response.output_text.done', {
				item_id: item.id,
				output_index: 0,
				content_index: 0,
				text: answer.text ?? '',
			}),
		);
		events.push(
			ev('response.content_part.done', {
				item_id: item.id,
				output_index: 0,
				content_index: 0,
				part: { ...part, text: answer.text ?? '' },
			}),
		);
	}
	events.push(ev('response.output_item.done', { output_index: 0, item }));
	events.push(ev('response.completed', { response: completed }));
	sendEvents(res, events, false);
}

/**
 * @param {{apiKey?: string}} [options]
 */
async function startFakeOpenAi(options = {}) {
	const apiKey = options.apiKey ?? `sk-fake-${crypto.randomBytes(12).toString('hex')}`;
	addSecret(apiKey);
	/** @type {RecordedRequest[]} */
	let requests = [];
	/** @type {FakeOpenAiScript} */
	let script = {};

	/**
	 * @param {RecordedRequest} record
	 * @param {'chat' | 'responses'} api
	 */
	const decide = (record, api) => {
		const { tools, toolResults, request } = readConversation(api, record.body);
		record.tools = tools.map((/** @type {any} */ t) => t.name);
		record.toolResults = toolResults;
		const tool = script.tool
			? tools.find((/** @type {any} */ t) => t.name === script.tool)
			: tools[0];
		if (toolResults.length === 0 && tool) {
			record.toolCall = {
				name: tool.name,
				arguments: argumentsFor(tool.parameters, script.arguments ?? {}, request),
				callId: newId('call'),
			};
			return { toolCall: record.toolCall };
		}
		const addresses = toolResults.flatMap(addressesIn);
		const prefix = script.answerPrefix ?? 'Here is your image';
		if (addresses.length) record.text = `${prefix}: ${addresses.join(' ')}`;
		else if (toolResults.length)
			record.text = `The tool returned no image address. It said: ${toolResults.join(' ').slice(0, 500)}`;
		else
			record.text =
				script.tool && tools.length
					? `No tool named ${script.tool} was offered.`
					: 'No tool was offered.';
		return { text: record.text };
	};

	const server = http.createServer((req, res) => {
		/** @type {Buffer[]} */
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			const url = new URL(req.url ?? '/', 'http://127.0.0.1');
			const route = url.pathname.replace(/^\/v1(?=\/)/, '');
			let body;
			try {
				body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
			} catch {
				body = Buffer.concat(chunks).toString('utf8');
			}
			/** @type {RecordedRequest} */
			const record = {
				method: req.method ?? 'GET',
				path: url.pathname,
				api:
					route === '/chat/completions'
						? 'chat'
						: route === '/responses'
							? 'responses'
							: route === '/models'
								? 'models'
								: 'other',
				authorized: req.headers.authorization === `Bearer ${apiKey}`,
				stream: Boolean(body?.stream),
				body,
				tools: [],
				toolCall: undefined,
				text: undefined,
				toolResults: [],
			};
			requests.push(record);
			if (!record.authorized) {
				sendJson(res, 401, {
					error: {
						message: 'Incorrect API key provided.',
						type: 'invalid_request_error',
						param: null,
						code: 'invalid_api_key',
					},
				});
				return;
			}
			if (record.api === 'models' && req.method === 'GET') {
				sendJson(res, 200, {
					object: 'list',
					data: MODEL_LIST.map((id) => ({
						id,
						object: 'model',
						created: 1700000000,
						owned_by: 'fake',
					})),
				});
				return;
			}
			if (
				(record.api === 'chat' || record.api === 'responses') &&
				req.method === 'POST' &&
				body &&
				typeof body === 'object'
			) {
				const answer = decide(record, record.api);
				if (record.api === 'chat') answerChat(body, answer, res);
				else answerResponses(body, answer, res);
				return;
			}
			sendJson(res, 404, {
				error: {
					message: `The fake serves no ${req.method} ${url.pathname}`,
					type: 'invalid_request_error',
					param: null,
					code: 'unknown_url',
				},
			});
		});
	});
	/** @type {number} */
	const port = await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			resolve(typeof address === 'object' && address ? address.port : 0);
		});
	});
	// A caller that ends without stop() must not be held open by the listening socket.
	server.unref();

	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		apiKey,
		/** Forgets what was asked and sets how the next conversation goes. @param {FakeOpenAiScript} [next] */
		reset: (next = {}) => {
			requests = [];
			script = next;
		},
		/** @returns {RecordedRequest[]} */
		requests: () => requests,
		/** @returns {Promise<void>} */
		stop: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** @typedef {Awaited<ReturnType<typeof startFakeOpenAi>>} FakeOpenAi */

module.exports = { startFakeOpenAi };
