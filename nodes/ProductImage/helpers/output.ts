import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isHttpUrl } from '../transport/send';
import { isRecord } from '../transport/errors';
import { resumeAdvice, shortened } from '../transport/guidance';
import { quoteReply, serviceAccessIfRead } from '../transport/request';
import type { PixelSize } from './download';
import { downloadToBinary } from './download';
import type { Task } from './task';
import {
	handedOverInError,
	nameTaskInError,
	resultImageEntries,
	time,
	unreadableReplyAdvice,
	withTaskId,
} from './task';
import { KEPT_FOR } from '../serviceFacts';

/** In the order they are looked at. */
export const RESULT_IMAGE_URL_KEYS = [
	'url',
	'image_url',
	'imageUrl',
	'href',
	'src',
	'uri',
	'link',
	'download_url',
	'downloadUrl',
	'signed_url',
	'signedUrl',
	'file_url',
	'fileUrl',
] as const;

/** `url` as the service wrote it: complete, or relative to the Base URL (resolvedAddress). */
interface ResultImage {
	url?: string;
	asset_id?: string;
	expires_at?: string;
	[key: string]: unknown;
}

function readResultImage(entry: unknown): ResultImage {
	if (typeof entry === 'string') return { url: entry.trim() };
	if (!isRecord(entry)) return {};
	const key = RESULT_IMAGE_URL_KEYS.find(
		(name) => typeof entry[name] === 'string' && entry[name] !== '',
	);
	const assetId = entry.asset_id;
	const expiresAt = time.safeParse(entry.expires_at);
	return {
		...entry,
		url: key === undefined ? undefined : String(entry[key]).trim(),
		asset_id:
			typeof assetId === 'string' || typeof assetId === 'number' ? String(assetId) : undefined,
		expires_at: expiresAt.success ? (expiresAt.data ?? undefined) : undefined,
	};
}

/** What a generated image is for: the planned module and the pixel size it must fill. */
export interface ModuleTarget {
	module: string;
	target_width: number;
	target_height: number;
	target_size: string;
}

export interface ImageOutputSettings {
	downloadImages: boolean;
	binaryPropertyName: string;
	imagesOutput: 'perImage' | 'together';
	/** Each file is named after it and measured; an A+ module's image is held against its size. */
	purpose?: ImagePurpose;
}

interface ImagePurpose {
	fileName?: string;
	target?: ModuleTarget;
	productName?: string;
	largerAdvice?: string;
}

/** A product name as a file name a shop takes: `Steel Bottle 750 ml` becomes `steel-bottle-750-ml`. */
function productFileName(productName: string | undefined): string | undefined {
	const slug = (productName ?? '')
		.toLowerCase()
		.replace(/[^\p{L}\p{N}]+/gu, '-')
		.slice(0, 80)
		.replace(/^-+|-+$/g, '');
	return slug === '' ? undefined : slug;
}

/** A module's image is named by the module alone: a size in the name would be wrong once fitted. */
function imageFileName(
	purpose: ImagePurpose | undefined,
	image: ResultImage,
	taskId: string,
	index: number,
	count: number,
): string {
	const base =
		purpose?.fileName ?? purpose?.target?.module ?? productFileName(purpose?.productName);
	if (base === undefined) return image.asset_id?.split('/').pop() || `${taskId}-${index}`;
	const safe = safeFileName(base);
	return count > 1 ? `${safe}-${index + 1}` : safe;
}

/** Controls are found by code point: n8n's lint (no-control-regex) refuses them in a pattern. */
function safeFileName(base: string): string {
	const controlsMarked = Array.from(base, (character) =>
		character.charCodeAt(0) < 0x20 ? '|' : character,
	).join('');
	return controlsMarked.replace(/[\\/:*?"<>|]+/g, '-').trim() || 'image';
}

const belowTarget = (size: PixelSize, target: ModuleTarget) =>
	size.width < target.target_width || size.height < target.target_height;

function sizeFields(size: PixelSize | undefined, target: ModuleTarget | undefined): IDataObject {
	const fields: IDataObject = { width: size?.width ?? null, height: size?.height ?? null };
	if (target) fields.below_target = size ? belowTarget(size, target) : null;
	return fields;
}

/** An image smaller than its module would be stretched when fitted. */
function flagBelowTarget(
	context: IExecuteFunctions,
	taskId: string,
	index: number,
	size: PixelSize | undefined,
	{ target, largerAdvice = '' }: ImagePurpose,
): void {
	if (!size || !target || !belowTarget(size, target)) return;
	context.addExecutionHints?.({
		message:
			`Image ${index + 1} of task ${taskId} is ${size.width}×${size.height}, smaller than its "${target.module}" module (${target.target_width}×${target.target_height}): fitting it would upscale. Its item has 'below_target' true. ${largerAdvice}`.trim(),
		location: 'outputPane',
	});
}

/** A path on the service is resolved against the Base URL; undefined where no http(s) address comes of it. */
function resolvedAddress(
	address: string | undefined,
	baseUrl: string | undefined,
): string | undefined {
	if (!address) return undefined;
	if (isHttpUrl(address)) return address;
	if (baseUrl === undefined || /^[a-z][a-z0-9+.-]*:/i.test(address)) return undefined;
	if (!URL.canParse(address, `${baseUrl}/`)) return undefined;
	const resolved = new URL(address, `${baseUrl}/`).href;
	return isHttpUrl(resolved) ? resolved : undefined;
}

/** A finished task is billed: the error hands over what the service said instead of losing it. */
function unreadableResult(
	context: IExecuteFunctions,
	itemIndex: number,
	taskId: string,
	task: Task,
	message: string,
	secrets: readonly string[],
): NodeOperationError {
	const said = task.result ?? task.images;
	const quoted = said === undefined || said === null ? undefined : quoteReply(said, secrets);
	// A task query answered 200: no HTTP code (NodeApiError would read the status word as one).
	const reported = `The service reported task ${taskId} finished (status "${shortened(String(task.status))}").`;
	const error = withTaskId(
		new NodeOperationError(context.getNode(), message, {
			description:
				quoted === undefined
					? `${reported} A finished task does not change, so the node did not wait on. Query the task with 'Task → Get' to see what the service returned.`
					: `${reported} Its result (redacted): ${quoted} ${unreadableReplyAdvice(taskId)} 'Task → Get' outputs the whole task as the service sent it.`,
			itemIndex,
		}),
		taskId,
	);
	if (quoted !== undefined) {
		error.context.serviceReply = quoted;
		handedOverInError(context, taskId);
	}
	return error;
}

async function addressedImages(
	context: IExecuteFunctions,
	itemIndex: number,
	taskId: string,
	task: Task,
): Promise<Array<ResultImage & { url: string }>> {
	const service = await serviceAccessIfRead(context);
	const images = (resultImageEntries(task) ?? []).map(readResultImage).map((image) => ({
		...image,
		url: resolvedAddress(image.url, service?.baseUrl),
	}));
	if (images.length > 0 && images.every((image) => image.url !== undefined))
		return images as Array<ResultImage & { url: string }>;
	throw unreadableResult(
		context,
		itemIndex,
		taskId,
		task,
		images.length === 0
			? 'The finished task holds no result images'
			: 'The finished task holds no downloadable image URLs',
		service?.secrets ?? [],
	);
}

export async function taskResultItems(
	context: IExecuteFunctions,
	itemIndex: number,
	taskId: string,
	task: Task,
	settings: ImageOutputSettings,
): Promise<INodeExecutionData[]> {
	const images = await addressedImages(context, itemIndex, taskId, task);
	const purpose = settings.purpose;
	const fields: IDataObject[] = images.map((image, index) => ({
		...(purpose?.target ?? {}),
		task_id: taskId,
		status: task.status,
		image_index: index,
		image_count: images.length,
		url: image.url,
		asset_id: image.asset_id,
		expires_at: image.expires_at,
		completed_at: task.completed_at ?? undefined,
	}));
	if (!settings.downloadImages) return fields.map((json) => ({ json }));

	const binaries: IBinaryData[] = [];
	for (const [index, image] of images.entries()) {
		try {
			// With a purpose: named after it, measured, and its size fields added.
			const { binary, pixelSize } = await downloadToBinary(context, itemIndex, image.url, {
				fileName: imageFileName(purpose, image, taskId, index, images.length),
				errorContext: { taskId },
				measure: purpose !== undefined,
			});
			binaries.push(binary);
			if (purpose) {
				Object.assign(fields[index], sizeFields(pixelSize, purpose.target));
				flagBelowTarget(context, taskId, index, pixelSize, purpose);
			}
		} catch (error) {
			throw nameTaskInError(
				error,
				taskId,
				`Task ${taskId} succeeded; its image URLs are valid ${KEPT_FOR}. ${resumeAdvice('this task ID')}`,
			);
		}
	}
	const field = settings.binaryPropertyName;
	if (settings.imagesOutput === 'together') {
		const binary = Object.fromEntries(binaries.map((data, index) => [`${field}_${index}`, data]));
		return [{ json: { task_id: taskId, status: task.status, images: fields }, binary }];
	}
	return fields.map((json, index) => ({ json, binary: { [field]: binaries[index] } }));
}

/** Amazon takes only the module's exact size. The generated size, never an input item's `width`. */
function needsFitting(json: IDataObject): boolean {
	const { generated_width: width, generated_height: height } = json;
	const sizes = [width, height, json.target_width, json.target_height];
	if (!sizes.every((size) => typeof size === 'number')) return false;
	return width !== json.target_width || height !== json.target_height;
}

/** An input item's `images` never rides along (a generated item's own fields win): these are the node's. */
function outputImages(items: INodeExecutionData[]): IDataObject[] {
	return items.flatMap(({ json }) =>
		Array.isArray(json.images) ? (json.images as IDataObject[]) : [json],
	);
}

/** The ratio already matches the module, so Ignore Aspect Ratio distorts nothing. */
export function hintFitting(context: IExecuteFunctions, items: INodeExecutionData[]): void {
	const count = outputImages(items).filter(needsFitting).length;
	if (count === 0) return;
	const images =
		count === 1
			? '1 image is not yet the exact size of its A+ module'
			: `${count} images are not yet the exact size of their A+ modules`;
	context.addExecutionHints?.({
		message: `${images}. Fit with an Edit Image node: Operation 'Resize', 'Width' and 'Height' dragged from 'target_width' and 'target_height', 'Option' set to 'Ignore Aspect Ratio' (the default, 'Maximum Area', can miss by a pixel).`,
		location: 'outputPane',
	});
}

/** A URL expires, a file does not (Simplified has no 'expires_at'); Edit Image keeps the size fields. */
export function hintHandOver(context: IExecuteFunctions, items: INodeExecutionData[]): void {
	const withUrl = items.find(({ json }) => typeof outputImages([{ json }])[0]?.url === 'string');
	if (!withUrl) return;
	const file = Object.keys(withUrl.binary ?? {})[0];
	const expires = outputImages([withUrl])[0].expires_at !== undefined;
	const upload = file
		? `the file in '${file}' to upload (as the Shopify example does), or 'url' for a store that fetches images by URL ${expires ? "until 'expires_at' (3 days)" : 'for 3 days'}`
		: `'url', which the store must fetch ${expires ? "before 'expires_at' (3 days)" : 'within 3 days'}`;
	context.addExecutionHints?.({
		message: `To the store: ${upload}. After an Edit Image resize, 'generated_width' and 'generated_height' still give the generated size, not the fitted one.`,
		location: 'outputPane',
	});
}
