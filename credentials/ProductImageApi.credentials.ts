import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/**
 * The service has no "who am I" endpoint, so the test asks for a task id that can never exist:
 * a valid key gets 404 (accepted, task unknown), a wrong key gets 401/403.
 */
export const CREDENTIAL_PROBE_PATH = '/v1/open/tasks/task_credential_check';

export class ProductImageApi implements ICredentialType {
	name = 'productImageApi';

	displayName = 'Product Image API';

	icon: Icon = {
		light: 'file:../nodes/ProductImage/productImage.svg',
		dark: 'file:../nodes/ProductImage/productImage.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-product-image/n8n-nodes-product-image#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description:
				'Address of the service, without the /v1 path. The API key is sent to this origin only.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Member-level API key, sent as a Bearer token',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: CREDENTIAL_PROBE_PATH,
			method: 'GET',
			// 404 (task unknown) is the expected answer to a valid key; only a refused key fails.
			ignoreHttpStatusErrors: { ignore: true, except: [401, 403] },
			disableFollowRedirect: true,
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The service rejected the API key (HTTP 401). Copy the key again from your account.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: 'The service refused the API key (HTTP 403). It needs a full member-level key.',
				},
			},
			// n8n 1.x accepts every status in this mode; the service's envelope still says 401/403.
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'code',
					value: 401,
					message: 'The service rejected the API key (code 401). Copy the key again from your account.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'code',
					value: 403,
					message: 'The service refused the API key (code 403). It needs a full member-level key.',
				},
			},
			// n8n's tester checks each rule by its type; its typings only allow one type per list.
		] as unknown as ICredentialTestRequest['rules'],
	};
}
