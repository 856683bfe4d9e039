import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/** Amazon takes only the module's exact size. The generated size, never an input item's `width`. */
function needsFitting(json: IDataObject): boolean {
	const { generated_width: width, generated_height: height } = json;
	const sizes = [width, height, json.target_width, json.target_height];
	if (!sizes.every((size) => typeof size === 'number')) return false;
	return width !== json.target_width || height !== json.target_height;
}

/** An input item's `images` never rides along (generatedItemJson): these are the node's. */
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

/** A URL expires, a file does not; Edit Image passes the size fields on unchanged. */
export function hintHandOver(context: IExecuteFunctions, items: INodeExecutionData[]): void {
	const withUrl = items.find(({ json }) => typeof outputImages([{ json }])[0]?.url === 'string');
	if (!withUrl) return;
	const file = Object.keys(withUrl.binary ?? {})[0];
	// Only what the chosen Output holds: Simplified has no 'expires_at'.
	const expires = outputImages([withUrl])[0].expires_at !== undefined;
	const upload = file
		? `the file in '${file}' to upload (as the Shopify example does), or 'url' for a store that fetches images by URL ${expires ? "until 'expires_at' (3 days)" : 'for 3 days'}`
		: `'url', which the store must fetch ${expires ? "before 'expires_at' (3 days)" : 'within 3 days'}`;
	context.addExecutionHints?.({
		message: `To the store: ${upload}. After an Edit Image resize, 'generated_width' and 'generated_height' still give the generated size, not the fitted one.`,
		location: 'outputPane',
	});
}
