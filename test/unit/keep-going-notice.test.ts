import type { INodeProperties } from 'n8n-workflow';

import { ProductImage } from '../../nodes/ProductImage/ProductImage.node';

// Before the first billed run the panel says how one refused item leaves the others be.

const notices = (current: boolean) =>
	new ProductImage().description.properties.filter(
		(property: INodeProperties) =>
			property.name === 'billingNotice' &&
			(JSON.stringify(property.displayOptions?.show?.['@version']) !== '[1]') === current,
	);

test("the current version's billing notice says how to keep the other items going", () => {
	expect(notices(true).length).toBeGreaterThan(0);
	for (const notice of notices(true))
		expect(notice.displayName).toContain(
			"To let the other items go on when one fails, set 'On Error' in the node's Settings to 'Continue'.",
		);
});

test("version 1's notice reads as it was saved", () => {
	for (const notice of notices(false))
		expect(notice.displayName).toBe(
			"Each item submits a generation, which the service bills. To resume after a stop, use 'Task → Wait for Completion' with the task ID the node reports; 'Retry On Fail' would submit again.",
		);
});
