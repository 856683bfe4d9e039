import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	downloadFileNameOption,
	downloadUrlProperty,
	forOperation,
	optionsCollection,
	uploadFieldProperty,
} from '../descriptions/common.descriptions';
import type { GenerationRequest } from '../helpers/generation';
import {
	buildGenerationRequest,
	checkGenerationCount,
	submitGeneration,
} from '../helpers/generation';
import type { DownloadParameters } from '../helpers/download';
import { downloadItem, readDownload } from '../helpers/download';
import { BOTH_IMAGE_FIELDS, readUploadField, uploadBinaryField } from '../helpers/imageInputs';
import type { ImageOutputSettings } from '../helpers/output';
import { hintFitting } from '../helpers/output';
import type { WaitSettings } from '../helpers/waitForTask';
import { collectTask } from '../helpers/waitForTask';
import { panelProperty } from '../helpers/parameters';
import type { OperationModule } from '../router';
import { binaryPropertyOption } from './descriptions';
import { generationOptions, generationProperties } from './generation.descriptions';
import { readWaitSettingsAsSaved } from './task';

const generationFields = [...generationProperties, ...generationOptions(true)];

/** Version 1 keeps every field at the top, as text. */
function readGeneration(context: IExecuteFunctions, itemIndex: number): GenerationRequest {
	const read = (name: string) => context.getNodeParameter(name, itemIndex, '');
	return buildGenerationRequest(context, itemIndex, generationFields, {
		prompt: read('prompt'),
		size: read('size'),
		resolution: read('resolution'),
		productName: read('productName'),
		sellingPoints: read('sellingPoints'),
		platform: read('platform'),
		outputLanguage: read('outputLanguage'),
		imageFields: BOTH_IMAGE_FIELDS,
	});
}

/** The input item's fields come first; the node's own win a clash. */
const generatedItemJson = ({ inputFields }: GenerationRequest, json: IDataObject) =>
	inputFields ? { ...inputFields, ...json } : json;

const upload: OperationModule<string> = {
	description: forOperation('image', 'upload', [uploadFieldProperty]),
	readParameters(itemIndex) {
		return readUploadField(this, itemIndex, uploadFieldProperty);
	},
	async execute(itemIndex, field) {
		const uploaded = await uploadBinaryField(
			this,
			itemIndex,
			field,
			uploadFieldProperty.displayName,
		);
		return [{ json: uploaded as IDataObject }];
	},
};

function checkRun(this: IExecuteFunctions, ready: number): void {
	checkGenerationCount(this, ready, panelProperty(generationFields, 'maxGenerations'));
}

const generate: OperationModule<GenerationRequest> = {
	description: forOperation('image', 'generate', [
		...generationProperties,
		...generationOptions(false),
	]),
	readParameters(itemIndex) {
		return readGeneration(this, itemIndex);
	},
	async execute(itemIndex, request) {
		const submission = await submitGeneration(this, itemIndex, request);
		return [{ json: generatedItemJson(request, submission as IDataObject) }];
	},
	checkRun,
};

const generateAndWait: OperationModule<{
	request: GenerationRequest;
	settings: WaitSettings & ImageOutputSettings;
}> = {
	description: forOperation('image', 'generateAndWait', [
		...generationProperties,
		...generationOptions(true),
	]),
	readParameters(itemIndex) {
		return {
			settings: readWaitSettingsAsSaved(this, itemIndex),
			request: readGeneration(this, itemIndex),
		};
	},
	async execute(itemIndex, { request, settings }) {
		const { task_id: taskId } = await submitGeneration(this, itemIndex, request);
		const items = await collectTask(this, itemIndex, taskId, settings, Date.now());
		return items.map((item) => ({ ...item, json: generatedItemJson(request, item.json) }));
	},
	checkRun,
	runsConcurrently: true,
	afterRun(output) {
		hintFitting(this, output);
	},
};

const download: OperationModule<DownloadParameters> = {
	description: forOperation('image', 'download', [
		downloadUrlProperty,
		optionsCollection([binaryPropertyOption, downloadFileNameOption]),
	]),
	readParameters(itemIndex) {
		return readDownload(this, itemIndex, binaryPropertyOption);
	},
	execute: downloadItem,
};

export const operations = { upload, generate, generateAndWait, download };
