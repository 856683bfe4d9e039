import type { INodeProperties, INodePropertyOptions, IParameterBuilderHint } from 'n8n-workflow';

/**
 * What n8n's AI workflow builder would otherwise guess wrong. Each text stays inside a literal
 * `builderHint` object, so n8n's lint rule `no-builder-hint-leakage` reads every one of them.
 */
interface ParameterHint {
	/** Only where the parameter shows on one of these operations. */
	operations?: string[];
	builderHint: IParameterBuilderHint;
}

/**
 * By the parameter's name, `collection.option` for an option inside a collection, or
 * `parameter=value` for one entry of a list parameter (an operation).
 */
export const PARAMETER_HINTS: Readonly<Record<string, ParameterHint>> = {
	'operation=generateAndWait': {
		builderHint: {
			propertyHint:
				'Default choice: submits, waits and outputs each image as a file in the binary field data. Billed per item.',
		},
	},
	'operation=generate': {
		builderHint: {
			propertyHint:
				'Submits only and outputs task_id; collect the images later with Task → Wait for Completion (large catalogs, scheduled collection).',
		},
	},
	'operation=wait': {
		builderHint: {
			propertyHint:
				'Collects the images of an existing task_id: use it to resume after a stop instead of generating again.',
		},
	},
	'operation=upload': {
		builderHint: {
			propertyHint:
				"Rarely needed: imageSource 'binary' on the other operations uploads files itself.",
		},
	},
	'operation=download': {
		builderHint: {
			propertyHint:
				'Takes one image URL per item: split a list of URLs into items with Split Out first.',
		},
	},
	'operation=create': {
		builderHint: {
			propertyHint:
				"Needs a product description: put Analysis → Analyze before this node (its text is used), or set descriptionSource 'define' and productDescription.",
		},
	},
	generationSource: {
		builderHint: {
			propertyHint:
				"'aPlusModule' only when every input item is one module item of A+ Plan → Create; prompt, size and resolution then come from the plan. Otherwise 'define' and set prompt, size and resolution.",
		},
	},
	prompt: {
		builderHint: {
			propertyHint:
				'Describe the scene, background and style of the new image; the product itself comes from the source images.',
		},
	},
	imageSource: {
		builderHint: {
			propertyHint:
				"'urls' for image URLs (typed, or a store node's images field); 'binary' for files of the input item, named in inputBinaryFields; 'both' for both.",
		},
	},
	imageUrls: {
		builderHint: {
			propertyHint:
				"http(s) URLs separated by commas or new lines, or a store item's whole images list, e.g. expr('{{ $json.images }}'): each image's src or url is read. Never binary field names.",
		},
	},
	inputBinaryFields: {
		builderHint: {
			propertyHint:
				'Binary field names of the input item, comma-separated, such as data; not URLs.',
		},
	},
	size: {
		builderHint: {
			propertyHint:
				"Aspect ratio width:height such as 1:1, 4:5 or 16:9, not pixels. Other ratios: 'custom' with customSize, e.g. 61:25 for 1464x600; exact pixels come from Edit Image afterwards.",
		},
	},
	resolution: {
		builderHint: {
			propertyHint:
				'Long side: 1k about 1024 px, 2k about 2048 px, 4k about 4096 px. Store product images: size 1:1 with 2k.',
		},
	},
	modules: {
		builderHint: {
			propertyHint:
				'A+ module ids such as hero (1464x600), hero970, core, usage, specs, brand, size. Each becomes one module item and later one billed generation.',
		},
	},
	'planDetails.platform': {
		operations: ['create'],
		builderHint: { propertyHint: "Leave it out or use 'amazon': A+ content is Amazon's." },
	},
	descriptionSource: {
		builderHint: {
			propertyHint:
				"'analysis' when the input item comes from Analysis → Analyze (its text is used); otherwise 'define' and describe the product in productDescription.",
		},
	},
	taskId: {
		builderHint: {
			propertyHint:
				'The task_id of an Image → Submit Generation (No Wait) item, or the one a stopped Generate and Wait names; a task item or task URL also works.',
		},
	},
	output: {
		builderHint: {
			propertyHint:
				"Keep 'raw' when Edit Image or another Product Image node follows: they read target_width, target_height, module and recommended_prompt. 'simplified' suits an AI agent's tool.",
		},
	},
	'options.maxGenerations': {
		builderHint: {
			propertyHint:
				'Set it when the number of input items is open-ended (a store catalog): the run stops before any billed submit when more items arrive.',
		},
	},
	'options.outputFiles': {
		builderHint: {
			propertyHint:
				'Its binaryPropertyName is the output binary field, data by default; Edit Image and the store nodes read data unless told otherwise.',
		},
	},
};

function onOperation(property: INodeProperties, operations?: string[]): boolean {
	if (!operations) return true;
	const shown = property.displayOptions?.show?.operation ?? [];
	return operations.some((operation) => shown.includes(operation));
}

/** `top` is the top-level parameter, whose display options say on which operation it shows. */
function hinted(property: INodeProperties, path: string, top: INodeProperties): INodeProperties {
	const hintOf = (key: string) => {
		const hint = Object.hasOwn(PARAMETER_HINTS, key) ? PARAMETER_HINTS[key] : undefined;
		return hint && onOperation(top, hint.operations) ? hint.builderHint : undefined;
	};
	const own = hintOf(path);
	const options = property.options?.map((option) => {
		if (property.type === 'collection') {
			const child = option as INodeProperties;
			return hinted(child, `${path}.${child.name}`, top);
		}
		const entry = option as INodePropertyOptions;
		const builderHint = hintOf(`${path}=${String(entry.value)}`);
		return builderHint ? { ...entry, builderHint } : entry;
	});
	return {
		...property,
		...(own ? { builderHint: own } : {}),
		...(options ? { options } : {}),
	};
}

/** The current version's parameters with their builder hints (a builder adds the current version). */
export function withBuilderHints(properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => hinted(property, property.name, property));
}
