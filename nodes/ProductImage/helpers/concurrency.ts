/**
 * Runs `work(index)` for 0..count-1 with at most `limit` in flight. Results land at their index,
 * so output order never depends on which item finished first. After the first failure no new
 * index starts; those in flight finish, then the failure is raised.
 */
export async function forEachLimited(
	count: number,
	limit: number,
	work: (index: number) => Promise<void>,
): Promise<void> {
	let next = 0;
	let failure: { error: unknown } | undefined;
	const lane = async () => {
		while (!failure && next < count) {
			const index = next++;
			try {
				await work(index);
			} catch (error) {
				failure ??= { error };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, count)) }, lane));
	if (failure) throw failure.error;
}
