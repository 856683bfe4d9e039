import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isHttpUrl, quotedText, quoteReply, serviceAccessIfRead } from '../transport';
import type { ModuleTarget } from './aPlus';
import type { PixelSize } from './download';
import { downloadMeasured, downloadToBinary } from './download';
import type { ResultImage, Task } from './schemas';
import { readResultImage, resultImageEntries } from './schemas';
import { handedOverInError, nameTaskInError, unreadableReplyAdvice, withTaskId } from './task';

export interface ImageOutputSettings {
	downloadImages: boolean;
	binaryPropertyName: string;
	imagesOutput: 'perImage' | 'together';
	/** Each image's pixel size, its module and a name that says what it is (not in version 1). */
	described?: DescribedImages;
}

interface DescribedImages {
	fileName?: string;
	target?: ModuleTarget;
	productName?: string;
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

/**
 * File names that say what the image is: the File Name option, the module, or the product's name;
 * the service's own name (a task id) only when none is known. A module's image is named by the
 * module alone (`hero.png`): a size in the name would be wrong either before the image is fitted
 * (the service generates at a resolution) or after (Edit Image keeps the name).
 */
function describedFileName(
	described: DescribedImages,
	image: ResultImage,
	taskId: string,
	index: number,
	count: number,
): string {
	const base =
		described.fileName ?? described.target?.module ?? productFileName(described.productName);
	if (base === undefined) return fileNameFor(image, taskId, index);
	const safe = safeFileName(base);
	return count > 1 ? `${safe}-${index + 1}` : safe;
}

/**
 * A run of characters a file system refuses in a name (Windows' reserved ones and the control
 * characters below U+0020) becomes one dash. The controls are found by code point: n8n's lint
 * (no-control-regex) takes a control character in a pattern for a mistake.
 */
function safeFileName(base: string): string {
	const controlsMarked = Array.from(base, (character) =>
		character.charCodeAt(0) < 0x20 ? '|' : character,
	).join('');
	return controlsMarked.replace(/[\\/:*?"<>|]+/g, '-').trim() || 'image';
}

/** Width, height and, for a module, whether the image is too small to be fitted down to it. */
function sizeFields(size: PixelSize | undefined, target: ModuleTarget | undefined): IDataObject {
	const fields: IDataObject = { width: size?.width ?? null, height: size?.height ?? null };
	if (target) {
		fields.below_target = size
			? size.width < target.target_width || size.height < target.target_height
			: null;
	}
	return fields;
}

function fileNameFor(image: ResultImage, taskId: string, index: number): string {
	const fromAsset = image.asset_id?.split('/').pop();
	return fromAsset || `${taskId}-${index}`;
}

function describeImage(
	task: Task,
	taskId: string,
	image: ResultImage & { url: string },
	index: number,
	count: number,
): IDataObject {
	return {
		task_id: taskId,
		status: task.status,
		image_index: index,
		image_count: count,
		url: image.url,
		asset_id: image.asset_id,
		expires_at: image.expires_at,
		completed_at: task.completed_at ?? undefined,
	};
}

/** An image smaller than its module would be stretched when fitted: a hint on the output names it. */
function flagBelowTarget(
	context: IExecuteFunctions,
	taskId: string,
	index: number,
	size: PixelSize | undefined,
	target: ModuleTarget | undefined,
): void {
	if (
		!size ||
		!target ||
		(size.width >= target.target_width && size.height >= target.target_height)
	)
		return;
	context.addExecutionHints?.({
		message: `Image ${index + 1} of task ${taskId} is ${size.width}×${size.height}, smaller than its "${target.module}" module (${target.target_width}×${target.target_height}): fitting it would upscale. Its item has 'below_target' true; generate it with a higher 'Resolution'.`,
		location: 'outputPane',
	});
}

/**
 * An image's address as one to fetch: complete, or a path on the service resolved against the Base
 * URL (the transport then sends the key only if it stays on the Base URL's origin). Undefined for
 * anything that does not lead to an http(s) address.
 */
function resolvedAddress(
	address: string | undefined,
	baseUrl: string | undefined,
): string | undefined {
	if (!address) return undefined;
	if (isHttpUrl(address)) return address;
	if (baseUrl === undefined || /^[a-z][a-z0-9+.-]*:/i.test(address)) return undefined;
	try {
		const resolved = new URL(address, `${baseUrl}/`).href;
		return isHttpUrl(resolved) ? resolved : undefined;
	} catch {
		return undefined;
	}
}

/**
 * A finished task is billed: when its images cannot be read, the error hands over what the service
 * said about its result (redacted, bounded) with the task id, instead of losing it.
 */
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
	const reported = `The service reported task ${taskId} finished (status "${quotedText(String(task.status))}").`;
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

/** Turns a succeeded task into output items: its images as binary data, or their addresses. */
export async function taskResultItems(
	context: IExecuteFunctions,
	itemIndex: number,
	taskId: string,
	task: Task,
	settings: ImageOutputSettings,
): Promise<INodeExecutionData[]> {
	const service = await serviceAccessIfRead(context);
	const listed = (resultImageEntries(task) ?? []).map(readResultImage);
	const images = listed.map((image) => ({
		...image,
		url: resolvedAddress(image.url, service?.baseUrl),
	}));
	if (images.length === 0 || images.some((image) => image.url === undefined)) {
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
	const addressed = images as Array<ResultImage & { url: string }>;
	const target = settings.described?.target;
	const described = addressed.map((image, index) => ({
		...(target ?? {}),
		...describeImage(task, taskId, image, index, images.length),
	}));
	if (!settings.downloadImages) return described.map((json) => ({ json }));

	const binaries: IBinaryData[] = [];
	const { described: describedImages } = settings;
	for (const [index, image] of addressed.entries()) {
		try {
			if (!describedImages) {
				binaries.push(
					await downloadToBinary(context, itemIndex, image.url, {
						fileName: fileNameFor(image, taskId, index),
						errorContext: { taskId },
					}),
				);
				continue;
			}
			const { binary, pixelSize } = await downloadMeasured(context, itemIndex, image.url, {
				fileName: describedFileName(describedImages, image, taskId, index, images.length),
				errorContext: { taskId },
			});
			binaries.push(binary);
			Object.assign(described[index], sizeFields(pixelSize, describedImages.target));
			flagBelowTarget(context, taskId, index, pixelSize, describedImages.target);
		} catch (error) {
			throw nameTaskInError(
				error,
				taskId,
				`Task ${taskId} succeeded: fetch its images again with 'Task → Wait for Completion' and this task ID (the URLs are valid 3 days) instead of generating again.`,
			);
		}
	}
	if (settings.imagesOutput === 'together') {
		const binary = Object.fromEntries(
			binaries.map((data, index) => [`${settings.binaryPropertyName}_${index}`, data]),
		);
		return [{ json: { task_id: taskId, status: task.status, images: described }, binary }];
	}
	return described.map((json, index) => ({
		json,
		binary: { [settings.binaryPropertyName]: binaries[index] },
	}));
}
