import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import {
	downloadFileNameOption,
	downloadUrlProperty,
	forOperation,
	optionsCollection,
} from '../../../descriptions/common.descriptions';
import type { DownloadParameters } from '../../../helpers/imageDownload';
import { downloadItem, readDownload } from '../../../helpers/imageDownload';
import { outputFileFieldOption } from '../../descriptions/options.descriptions';

export const description = forOperation('image', 'download', [
	downloadUrlProperty,
	optionsCollection([outputFileFieldOption, downloadFileNameOption]),
]);

export function readParameters(this: IExecuteFunctions, itemIndex: number): DownloadParameters {
	return readDownload(this, itemIndex, outputFileFieldOption);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	parameters: DownloadParameters,
): Promise<INodeExecutionData[]> {
	return await downloadItem(this, itemIndex, parameters);
}
