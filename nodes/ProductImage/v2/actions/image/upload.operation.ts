import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { forOperation, uploadFieldProperty } from '../../../descriptions/common.descriptions';
import { readUploadField, uploadBinaryField } from '../../../helpers/imageInputs';

export const description = forOperation('image', 'upload', [uploadFieldProperty]);

export function readParameters(this: IExecuteFunctions, itemIndex: number): string {
	return readUploadField(this, itemIndex, uploadFieldProperty);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	field: string,
): Promise<INodeExecutionData[]> {
	const uploaded = await uploadBinaryField(this, itemIndex, field, uploadFieldProperty.displayName);
	return [{ json: uploaded as IDataObject }];
}
