import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Call at the top of a test file of the real-n8n harness' helpers: each test gets an empty cache
 * folder of its own (PRODUCT_IMAGE_E2E_CACHE, where locks and port reservations live), removed
 * after it. Returns the current test's folder.
 */
export function useTemporaryE2eCache(): () => string {
	let cache = '';
	const saved = process.env.PRODUCT_IMAGE_E2E_CACHE;
	beforeEach(() => {
		cache = mkdtempSync(path.join(tmpdir(), 'product-image-test-cache-'));
		process.env.PRODUCT_IMAGE_E2E_CACHE = cache;
	});
	afterEach(() => {
		if (saved === undefined) delete process.env.PRODUCT_IMAGE_E2E_CACHE;
		else process.env.PRODUCT_IMAGE_E2E_CACHE = saved;
		rmSync(cache, { recursive: true, force: true });
	});
	return () => cache;
}
