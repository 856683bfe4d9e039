import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isHttpUrl } from '../transport';
import type { ModuleTarget } from './aPlus';
import type { PixelSize } from './download';
import { downloadMeasured, downloadToBinary } from './download';
import type { ResultImage, Task } from './schemas';
import { nameTaskInError, withTaskId } from './task';

export interface ImageOutputSettings {
	downloadImages: boolean;
	binaryPropertyName: string;
	imagesOutput: 'perImage' | 'together';
	/** Version 2: each image's pixel size, its module and a name that says what it is. */
	described?: DescribedImages;
}

export interface DescribedImages {
	fileName?: string;
	target?: ModuleTarget;
	productName?: string;
}

/** A product name as a file name a shop takes: `Steel Bottle 750 ml` becomes `steel-bottle-750-ml`. */
export function productFileName(productName: string | undefined): string | undefined {
	const slug = (productName ?? '')
		.toLowerCase()
		.replace(/[^\p{L}\p{N}]+/gu, '-')
		.slice(0, 80)
		.replace(/^-+|-+$/g, '');
	return slug === '' ? undefined : slug;
}

/**
 * File names that say what the image is: the File Name option, the module and its size, or the
 * product's name; the service's own name (a task id) only when none is known.
 */
function describedFileName(
	described: DescribedImages,
	image: ResultImage,
	taskId: string,
	index: number,
	count: number,
): string {
	const base =
		described.fileName ??
		(described.target
			? `${described.target.module}-${described.target.target_size}`
			: productFileName(described.productName));
	if (base === undefined) return fileNameFor(image, taskId, index);
	const safe = base.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '-').trim() || 'image';
	return count > 1 ? `${safe}-${index + 1}` : safe;
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
	image: ResultImage,
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
		message: `Image ${index + 1} of task ${taskId} is ${size.width}×${size.height}, smaller than its "${target.module}" module (${target.target_width}×${target.target_height}): fitting it would upscale. Its item has below_target: true; generate it at a higher Resolution.`,
		location: 'outputPane',
	});
}

/** Turns a succeeded task into output items: its images as binary data, or their addresses. */
export async function taskResultItems(
	context: IExecuteFunctions,
	itemIndex: number,
	taskId: string,
	task: Task,
	settings: ImageOutputSettings,
): Promise<INodeExecutionData[]> {
	const images = task.result?.images ?? [];
	if (images.length === 0 || images.some((image) => !isHttpUrl(image.url))) {
		// A task query answered 200: no HTTP code (NodeApiError would read the status word as one).
		throw withTaskId(
			new NodeOperationError(
				context.getNode(),
				images.length === 0
					? `The service reported task ${taskId} finished (status "${task.status}") without result images`
					: `Task ${taskId} succeeded but its result holds no downloadable image addresses`,
				{
					description:
						'A finished task does not change, so the node did not wait on. Query the task with Task → Get to see what the service returned.',
					itemIndex,
				},
			),
			taskId,
		);
	}
	const target = settings.described?.target;
	const described = images.map((image, index) => ({
		...(target ?? {}),
		...describeImage(task, taskId, image, index, images.length),
	}));
	if (!settings.downloadImages) return described.map((json) => ({ json }));

	const binaries: IBinaryData[] = [];
	const { described: describedImages } = settings;
	for (const [index, image] of images.entries()) {
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
				`Task ${taskId} succeeded: fetch its images again with the Task resource's "Wait for Completion" operation and this task id (the addresses are valid 3 days) instead of generating again.`,
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
