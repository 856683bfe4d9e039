// @ts-check
'use strict';

// An AI Agent with Product Image as its tool: the model (the local fake of OpenAI's API) is
// offered the tool with the schema n8n builds from the `$fromAI(...)` parameters, calls it,
// the node really generates the image on the simulator with the model's arguments, the model
// gets the image address back and the agent's answer carries it. Neither key reaches a place
// it does not belong.

const assert = require('node:assert/strict');
const { redact } = require('../lib/redact');

const AGENT = 'Product image agent';
const TOOL = 'Generate product image';
const TOOL_TYPE = 'n8n-nodes-product-image.productImageTool';
// What the fake model puts into its tool call; `size` must be a ratio the service accepts.
const ARGUMENTS = {
	prompt:
		'Matte black insulated steel bottle, 750 ml, on a pure white background, soft studio light, product centred',
	size: '1:1',
};

/** @type {import('../lib/expectation').Expectation} */
const expectation = (runData, ctx) => {
	const llm = ctx.llm;
	assert.ok(llm, 'the run had no fake OpenAI endpoint');
	const [toolNode] = ctx.nodesOfType(TOOL_TYPE);
	assert.ok(toolNode, `the workflow has no ${TOOL_TYPE} node`);

	// The model was asked through the credential's Base URL, with its key, and offered our tool.
	const calls = llm.requests.filter((r) => r.api === 'chat' || r.api === 'responses');
	assert.ok(
		calls.length >= 2,
		`the model was asked ${calls.length} time(s): ${llm.requests.map((r) => `${r.method} ${r.path}`).join(', ')}`,
	);
	for (const r of llm.requests)
		assert.ok(
			r.authorized,
			`${r.method} ${r.path} reached the model without the OpenAI credential's key`,
		);
	const first = calls[0];
	const offered = (first.body.tools ?? []).map((/** @type {any} */ t) =>
		first.api === 'chat' ? t.function : t,
	);
	assert.equal(offered.length, 1, `the model was offered ${offered.length} tools`);
	const tool = offered[0];
	assert.equal(
		tool.description,
		toolNode.parameters.toolDescription,
		"the tool's manual description did not reach the model",
	);
	assert.deepEqual(
		Object.keys(tool.parameters?.properties ?? {}).sort(),
		['prompt', 'size'],
		'the tool schema holds the $fromAI parameters',
	);
	assert.deepEqual([...(tool.parameters.required ?? [])].sort(), ['prompt', 'size']);

	// Exactly one tool call, and the node ran with its arguments.
	const toolCalls = calls
		.filter((r) => r.toolCall)
		.map((r) => /** @type {NonNullable<typeof r.toolCall>} */ (r.toolCall));
	assert.equal(toolCalls.length, 1, `the model called tools ${toolCalls.length} times`);
	assert.equal(toolCalls[0].name, tool.name);
	assert.deepEqual(
		toolCalls[0].arguments,
		ARGUMENTS,
		'the fake model did not use the scripted arguments',
	);
	assert.equal(ctx.stats.submitsAccepted, 1, 'one generation submitted');
	assert.equal(ctx.tasks.length, 1);
	const { body } = ctx.tasks[0];
	assert.equal(body.prompt, toolCalls[0].arguments.prompt, "the task's prompt is not the model's");
	assert.equal(body.size, toolCalls[0].arguments.size, "the task's size is not the model's");
	assert.equal(ctx.nodeError(TOOL), undefined, `"${TOOL}" failed: ${ctx.nodeError(TOOL)?.message}`);

	// The tool handed the address on (no download: Download Images is off) ...
	const toolRuns = runData[TOOL] ?? [];
	assert.equal(toolRuns.length, 1, `"${TOOL}" ran ${toolRuns.length} time(s)`);
	const toolItems = toolRuns[0].data?.ai_tool?.[0] ?? [];
	assert.equal(toolItems.length, 1, 'one image from the tool');
	const { json, binary } = toolItems[0];
	assert.equal(binary, undefined, 'the tool downloaded the image although Download Images is off');
	assert.equal(json.task_id, ctx.tasks[0].task_id);
	assert.equal(json.status, 'succeeded');
	const url = String(json.url);
	const sim = ctx.simulator;
	assert.ok(sim, 'this expectation runs against the simulator');
	assert.ok(
		url.startsWith(sim.baseUrl) || (sim.cdnUrl && url.startsWith(sim.cdnUrl)),
		`the image address ${url} is not the simulator's`,
	);

	// ... the model got it back, and the agent's answer quotes it.
	const answered = calls.filter((r) => r.toolResults.some((t) => t.includes(url)));
	assert.equal(
		answered.length,
		1,
		'the tool result with the image address did not reach the model',
	);
	const output = ctx.items(AGENT);
	assert.equal(output.length, 1, 'one answer from the agent');
	assert.equal(
		ctx.nodeError(AGENT),
		undefined,
		`"${AGENT}" failed: ${ctx.nodeError(AGENT)?.message}`,
	);
	assert.ok(
		String(output[0].json.output).includes(url),
		`the agent's answer does not give the image address: ${output[0].json.output}`,
	);

	// The Product Image key went to the service only, never into what the model saw (a
	// registered key would be masked by redact), and every service call carried it.
	const seenByModel = JSON.stringify(llm.requests.map((r) => r.body));
	assert.equal(redact(seenByModel), seenByModel, 'a key appears in what the model was sent');
	for (const r of ctx.stats.requests ?? []) {
		if (r.origin === 'cdn')
			assert.ok(!r.authorization, `the key went to the CDN: ${r.method} ${r.path}`);
		else if (!['media', 'asset'].includes(r.route))
			assert.match(
				String(r.authorization ?? ''),
				/^Bearer /,
				`${r.method} ${r.path} was sent without the key`,
			);
	}
};

expectation.llm = { arguments: ARGUMENTS };

module.exports = expectation;
