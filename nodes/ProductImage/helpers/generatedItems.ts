import type { IDataObject } from 'n8n-workflow';

import type { GenerationRequest } from './generationRequest';

/**
 * A generated item's fields: the input item's when asked for (Include Other Input Fields), the
 * A+ module it is for, then the node's own, which win over an input field of the same name.
 */
export function generatedItemJson(request: GenerationRequest, json: IDataObject): IDataObject {
	if (!request.inputFields && !request.target) return json;
	return { ...(request.inputFields ?? {}), ...(request.target ?? {}), ...json };
}
