import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

type EncodePng = (width: number, height: number, rgb: Uint8Array) => Buffer;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { encodePng }: { encodePng: EncodePng } = require('../simulator/png');

/** A real PNG of the given size, for input items. */
export function pngBytes(width = 32, height = 24): Buffer {
	const rgb = new Uint8Array(width * height * 3);
	for (let index = 0; index < rgb.length; index++) rgb[index] = (index * 37) % 256;
	return encodePng(width, height, rgb);
}

/** An input item carrying PNG photos in memory, as a Read File or HTTP node would hand them on. */
export function photoItem(
	fields: string[] = ['data'],
	json: INodeExecutionData['json'] = {},
): INodeExecutionData {
	const binary: NonNullable<INodeExecutionData['binary']> = {};
	for (const [index, field] of fields.entries()) {
		binary[field] = {
			data: pngBytes(32 + index, 24).toString('base64'),
			mimeType: 'image/png',
			fileName: `photo-${field}.png`,
			fileExtension: 'png',
		};
	}
	return { json, binary };
}

export function pairedIndexes(items: INodeExecutionData[]): number[] {
	return items.map((item) => {
		const paired = item.pairedItem;
		if (typeof paired === 'number') return paired;
		if (Array.isArray(paired)) return paired[0]?.item ?? -1;
		return paired?.item ?? -1;
	});
}

const WAITING = ['initialDelay', 'polling', 'pollInterval', 'maxWaitTime', 'onTimeout'];
const OUTPUT_FILES = ['downloadImages', 'imagesOutput', 'binaryPropertyName', 'fileName'];

/**
 * Options written flat, as version 1 stores them, in the current version's shape: the wait
 * settings in the Waiting bundle, the file settings in Output Files, the rest as they are.
 */
export function currentVersionOptions(flat: INodeParameters): INodeParameters {
	const pick = (names: string[]): INodeParameters =>
		Object.fromEntries(Object.entries(flat).filter(([name]) => names.includes(name)));
	const waiting = pick(WAITING);
	const outputFiles = pick(OUTPUT_FILES);
	return {
		...Object.fromEntries(
			Object.entries(flat).filter(
				([name]) => !WAITING.includes(name) && !OUTPUT_FILES.includes(name),
			),
		),
		...(Object.keys(waiting).length ? { waiting: { value: waiting } } : {}),
		...(Object.keys(outputFiles).length ? { outputFiles: { value: outputFiles } } : {}),
	};
}
