import type { INodeProperties } from 'n8n-workflow';

import { ProductImage } from '../../nodes/ProductImage/ProductImage.node';

// Before the first billed run the panel says how one refused item leaves the others be.

const notices = () =>
	new ProductImage().description.properties.filter(
		(property: INodeProperties) => property.name === 'billingNotice',
	);

test('the billing notice of both versions says how to keep the other items going', () => {
	expect(notices().length).toBeGreaterThan(0);
	for (const notice of notices())
		expect(notice.displayName).toContain(
			"To let the other items go on when one fails, set 'On Error' in the node's Settings to 'Continue'.",
		);
});
