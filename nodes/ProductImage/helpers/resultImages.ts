import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { downloadToBinary } from './downloadBinary';
import { isHttpAddress } from './imageUrls';
import { nameTaskInError } from './waitForTask';
import type { ResultImage, Task } from './schemas';

export interface ImageOutputSettings {
	downloadImages: boolean;
	binaryPropertyName: string;
	imagesOutput: 'perImage' | 'together';
}

function fileNameFor(image: ResultImage, taskId: string, index: number): string {
	const fromAsset = image.asset_id?.split('/').pop();
	return fromAsset || `${taskId}-${index}`;
}

function describeImage(task: Task, taskId: string, image: ResultImage, index: number, count: number): IDataObject {
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

/** Turns a succeeded task into output items: its images as binary data, or their addresses. */
export async function taskResultItems(
	context: IExecuteFunctions,
	itemIndex: number,
	taskId: string,
	task: Task,
	settings: ImageOutputSettings,
): Promise<INodeExecutionData[]> {
	const images = task.result?.images ?? [];
	if (images.length === 0 || images.some((image) => !isHttpAddress(image.url))) {
		const error = new NodeApiError(
			context.getNode(),
			{ task_id: taskId, status: task.status },
			{
				message:
					images.length === 0
						? `The service reported task ${taskId} finished (status "${task.status}") without result images`
						: `Task ${taskId} succeeded but its result holds no downloadable image addresses`,
				description:
					'A finished task does not change, so the node did not wait on. Query the task with Task → Get to see what the service returned.',
				itemIndex,
			},
		);
		error.context.taskId = taskId;
		throw error;
	}
	const described = images.map((image, index) => describeImage(task, taskId, image, index, images.length));
	if (!settings.downloadImages) return described.map((json) => ({ json }));

	const binaries: IBinaryData[] = [];
	for (const [index, image] of images.entries()) {
		try {
			binaries.push(
				await downloadToBinary(context, itemIndex, image.url, {
					fileName: fileNameFor(image, taskId, index),
					errorContext: { taskId },
				}),
			);
		} catch (error) {
			throw nameTaskInError(
				error,
				taskId,
				`Task ${taskId} succeeded: fetch its images again with the Task resource's "Wait for Task" operation and this task id (the addresses are valid 3 days) instead of generating again.`,
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
