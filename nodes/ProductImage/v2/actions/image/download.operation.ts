import type { IExecuteFunctions } from 'n8n-workflow';

import {
	downloadFileNameOption,
	downloadUrlProperty,
	forOperation,
	optionsCollection,
} from '../../../descriptions/common.descriptions';
import type { DownloadParameters } from '../../../helpers/download';
import { readDownload } from '../../../helpers/download';
import { outputFileFieldOption } from '../../descriptions/options.descriptions';

export { downloadItem as execute } from '../../../helpers/download';

export const description = forOperation('image', 'download', [
	downloadUrlProperty,
	optionsCollection([outputFileFieldOption, downloadFileNameOption]),
]);

export function readParameters(this: IExecuteFunctions, itemIndex: number): DownloadParameters {
	return readDownload(this, itemIndex, outputFileFieldOption);
}
