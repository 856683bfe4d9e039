import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export interface InputFile {
	blob: Blob;
	fileName: string;
	mimeType: string;
}

/**
 * Reads one binary field of an item. Stored binaries (filesystem or S3 mode) are read as a stream
 * by id; in-memory ones through the buffer helper. The built-in FormData takes a Blob, which copies
 * the bytes once more: the upload holds about the file's size in memory (filesystem mode) or three
 * times it (memory mode, where the item also holds it as base64); `npm run bench` measures both.
 */
/** A named binary field must be on the item; the error lists the fields that are. */
export function assertBinaryField(
	context: IExecuteFunctions,
	itemIndex: number,
	fieldName: string,
	parameter: string,
): void {
	const item = context.getInputData()[itemIndex];
	const available = Object.keys(item?.binary ?? {});
	if (available.includes(fieldName)) return;
	throw new NodeOperationError(
		context.getNode(),
		`Parameter "${parameter}": the input item has no binary field "${fieldName}"`,
		{
			itemIndex,
			description: available.length
				? `Binary fields on this item: ${available.join(', ')}. Enter one of them.`
				: 'This item carries no binary data. Put a node that outputs files (HTTP Request, Read/Write Files, a store node) before this one.',
		},
	);
}

export async function readInputFile(
	context: IExecuteFunctions,
	itemIndex: number,
	fieldName: string,
	parameter: string,
): Promise<InputFile> {
	assertBinaryField(context, itemIndex, fieldName, parameter);
	const binary = context.helpers.assertBinaryData(itemIndex, fieldName);
	let parts: Uint8Array[];
	if (binary.id) {
		parts = [];
		const stream = await context.helpers.getBinaryStream(binary.id);
		for await (const chunk of stream as AsyncIterable<Uint8Array>) parts.push(chunk);
	} else {
		parts = [await context.helpers.getBinaryDataBuffer(itemIndex, fieldName)];
	}
	const mimeType = binary.mimeType || 'application/octet-stream';
	const extension = binary.fileExtension ? `.${binary.fileExtension}` : '';
	return {
		blob: new Blob(parts, { type: mimeType }),
		fileName: binary.fileName || `${fieldName}${extension}`,
		mimeType,
	};
}
