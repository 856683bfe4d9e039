import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/**
 * Whether an output image has a measured pixel size other than its A+ module's: Amazon takes it
 * only at the module's exact size, so it still has to be fitted. Only the node's own fields are
 * read: the generated size, never an input item's `width`.
 */
function needsFitting(json: IDataObject): boolean {
	const {
		generated_width: width,
		generated_height: height,
		target_width: targetWidth,
		target_height: targetHeight,
	} = json;
	if (
		typeof width !== 'number' ||
		typeof height !== 'number' ||
		typeof targetWidth !== 'number' ||
		typeof targetHeight !== 'number'
	)
		return false;
	return width !== targetWidth || height !== targetHeight;
}

/**
 * The images of the output items: one per item, or the `images` list of an item that holds all
 * (an input item's `images`, such as a store product's photos, never rides along: see
 * generatedItemJson).
 */
function outputImages(items: INodeExecutionData[]): IDataObject[] {
	return items.flatMap(({ json }) =>
		Array.isArray(json.images) ? (json.images as IDataObject[]) : [json],
	);
}

/**
 * One hint for the run, not one per item: which node fits the images and how. Edit Image's default
 * resize option (Maximum Area) keeps the ratio and can land a pixel short; the ratio already
 * matches the module, so Ignore Aspect Ratio distorts nothing and hits the size exactly.
 */
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

/**
 * One hint for the run: which field goes to the store. A URL expires, a file does not; the pixel
 * size fields keep the generated size after a resize (Edit Image passes the fields on unchanged).
 */
export function hintHandOver(context: IExecuteFunctions, items: INodeExecutionData[]): void {
	const withUrl = items.find(({ json }) => typeof outputImages([{ json }])[0]?.url === 'string');
	if (!withUrl) return;
	const file = Object.keys(withUrl.binary ?? {})[0];
	const upload = file
		? `the file in '${file}' to upload (as the Shopify example does), or 'url' for a store that fetches images by URL until 'expires_at' (3 days)`
		: `'url', which the store must fetch before 'expires_at' (3 days)`;
	context.addExecutionHints?.({
		message: `To the store: ${upload}. After an Edit Image resize, 'generated_width' and 'generated_height' still give the generated size, not the fitted one.`,
		location: 'outputPane',
	});
}
