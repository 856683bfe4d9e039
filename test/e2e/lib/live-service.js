// @ts-check
'use strict';

const { addSecret } = require('./redact');

/**
 * The real service, when PRODUCT_IMAGE_BASE_URL and PRODUCT_IMAGE_API_KEY name it; otherwise
 * undefined and the simulator stands in. Half a configuration is a mistake worth stopping on.
 * @returns {{baseUrl: string, apiKey: string, credentialName: string} | undefined}
 */
function liveService() {
	const baseUrl = process.env.PRODUCT_IMAGE_BASE_URL;
	const apiKey = process.env.PRODUCT_IMAGE_API_KEY;
	if (baseUrl && apiKey) {
		addSecret(apiKey);
		return { baseUrl, apiKey, credentialName: 'Product Image' };
	}
	if (baseUrl || apiKey) {
		throw new Error(
			'set both PRODUCT_IMAGE_BASE_URL and PRODUCT_IMAGE_API_KEY to use the real service, or neither for the simulator',
		);
	}
	return undefined;
}

module.exports = { liveService };
