import type { IExecuteFunctions } from 'n8n-workflow';

import { ENDPOINTS, requestResult } from '../transport';
import { readInputFile } from './binaryInput';
import type { UploadedImage } from './schemas';
import { uploadedImageSchema } from './schemas';

/** Uploads one binary field of the item as the multipart part `file`. */
export async function uploadBinaryField(
	context: IExecuteFunctions,
	itemIndex: number,
	fieldName: string,
	parameter: string,
): Promise<UploadedImage> {
	const file = await readInputFile(context, itemIndex, fieldName, parameter);
	const form = new FormData();
	form.append('file', file.blob, file.fileName);
	const { result } = await requestResult(
		context,
		{ purpose: 'upload', method: 'POST', path: ENDPOINTS.upload, body: form, itemIndex },
		uploadedImageSchema,
	);
	return result;
}
