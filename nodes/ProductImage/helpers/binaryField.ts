import type { IBinaryData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

// n8n-workflow 2.x's BINARY_IN_JSON_PROPERTY and BINARY_MODE_COMBINED, written out: the
// n8n-workflow of an n8n 1.x has neither, and this node still loads there.
const FILES_PROPERTY = '_files';
const FILES_PREFIX = `${FILES_PROPERTY}.`;
const COMBINED = 'combined';

/**
 * A name, a path in the item's JSON (combined binary mode), or the binary itself where combined
 * mode left it on the item (memory storage, which the engine does not convert).
 */
type BinaryReference = string | IBinaryData;

export interface FoundBinaryField {
	reference: BinaryReference;
	binary: IBinaryData;
}

/** n8n 1.x has neither the setting nor getWorkflowSettings on every context. */
function isCombinedBinaryMode(context: IExecuteFunctions): boolean {
	if (typeof context.getWorkflowSettings !== 'function') return false;
	return context.getWorkflowSettings()?.binaryMode === COMBINED;
}

function isBinaryValue(value: unknown): value is IBinaryData {
	return (
		typeof value === 'object' &&
		value !== null &&
		'mimeType' in value &&
		('data' in value || 'id' in value)
	);
}

/** `_files.data` → `data`: the field's name whichever form the operator typed. */
export function binaryFieldName(typed: string): string {
	return typed.startsWith(FILES_PREFIX) ? typed.slice(FILES_PREFIX.length) : typed;
}

/** The names an operator can type for the item's files: by name, or by path (`_files.data`). */
export function binaryFieldsOfItem(context: IExecuteFunctions, itemIndex: number): string[] {
	const item = context.getInputData()[itemIndex];
	const onItem = Object.keys(item?.binary ?? {});
	const files = item?.json?.[FILES_PROPERTY];
	const inJson =
		typeof files === 'object' && files !== null && !Array.isArray(files)
			? Object.entries(files as IDataObject)
					.filter(([, value]) => isBinaryValue(value))
					.map(([name]) => `${FILES_PREFIX}${name}`)
			: [];
	return [...onItem, ...inJson];
}

/** What the operator typed, in the forms n8n's helpers resolve in this binary mode. */
function candidates(
	context: IExecuteFunctions,
	itemIndex: number,
	typed: string,
): BinaryReference[] {
	const name = binaryFieldName(typed);
	if (!isCombinedBinaryMode(context)) return typed === name ? [typed] : [typed, name];
	const paths = typed === name ? [typed, `${FILES_PREFIX}${typed}`] : [typed];
	// Combined mode on memory storage: the engine leaves files on the item, where a path cannot
	// reach them; n8n 2.x's helpers take the binary itself.
	const leftOnItem = context.getInputData()[itemIndex]?.binary?.[name];
	return leftOnItem ? [...paths, leftOnItem] : paths;
}

/** Through n8n's own resolution (`assertBinaryData`), in either binary mode. */
export function findBinaryField(
	context: IExecuteFunctions,
	itemIndex: number,
	typed: string,
): FoundBinaryField | undefined {
	for (const reference of candidates(context, itemIndex, typed)) {
		try {
			return { reference, binary: context.helpers.assertBinaryData(itemIndex, reference) };
		} catch {
			// Not in this form: the next one, or the caller's error that lists the item's files.
		}
	}
	return undefined;
}
