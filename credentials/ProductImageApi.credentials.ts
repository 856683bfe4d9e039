import type { IAuthenticate, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

import { BASE_URL_LABEL, SERVICE_NAME } from '../nodes/ProductImage/serviceFacts';

/**
 * Tested by the Product Image node (`testedBy`): a declarative `test` here would take precedence
 * in n8n, and it cannot tell the service's reply from another server's.
 */
export class ProductImageApi implements ICredentialType {
	name = 'productImageApi';

	displayName = 'Product Image API';

	icon: Icon = {
		light: 'file:../nodes/ProductImage/productImage.svg',
		dark: 'file:../nodes/ProductImage/productImage.dark.svg',
	};

	// A page, not an anchor: n8n appends its own ?utm_… query to this address.
	documentationUrl =
		'https://github.com/n8n-nodes-product-image/n8n-nodes-product-image/blob/main/docs/credentials.md';

	properties: INodeProperties[] = [
		{
			displayName: BASE_URL_LABEL,
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://product-image-service.your-provider.com',
			// Shown under the field, not only on hover: the one thing a first connection gets wrong.
			hint: 'Without /v1 at the end: the node adds the path itself',
			description: `The URL of your ${SERVICE_NAME}, as its API documentation writes the base URL, without the /v1 path. The API key is sent to this host only. <a href="https://github.com/n8n-nodes-product-image/n8n-nodes-product-image/blob/main/docs/credentials.md" target="_blank">Where to find both values</a>.`,
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: `The member API key your provider issued with your ${SERVICE_NAME} account (a full key, not a restricted one)`,
		},
	];

	/**
	 * Not a generic `=Bearer {{$credentials.apiKey}}` block: n8n 2.x cannot resolve a credential's
	 * expression in a workflow whose Binary Mode is "combined" ("Node '…' hasn't been executed").
	 */
	authenticate: IAuthenticate = async (credentials, requestOptions) => ({
		...requestOptions,
		headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.apiKey)}` },
	});
}
