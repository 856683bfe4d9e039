import { z } from 'zod';

import { isRecord } from '../transport/errors';

/**
 * The spec leaves much "not shown": a field accepts the variants a real service plausibly sends
 * (docs/decisions.md lists them), and unknown fields pass through untouched, as users may need them.
 */

/** Ids sent as numbers are the same ids: they travel as text. */
const id = z.preprocess((value) => (typeof value === 'number' ? String(value) : value), z.string());

/** Epoch numbers (seconds, or milliseconds when that large) become ISO text. */
const time = z
	.union([
		z.string(),
		z.number().transform((value) => new Date(value < 1e11 ? value * 1000 : value).toISOString()),
	])
	.nullish();

export const uploadedImageSchema = z
	.object({
		id: z.string().min(1),
		url: z.string().url(),
		expiresAt: z.string().optional(),
	})
	.passthrough();

export const submissionSchema = z
	.object({
		task_id: id.pipe(z.string().min(1)),
		status: z.string().optional(),
	})
	.passthrough();

/** In the order they are looked at. */
export const RESULT_IMAGE_URL_KEYS = [
	'url',
	'image_url',
	'imageUrl',
	'href',
	'src',
	'uri',
	'link',
	'download_url',
	'downloadUrl',
	'signed_url',
	'signedUrl',
	'file_url',
	'fileUrl',
] as const;

/** `url` as the service wrote it: complete, or relative to the Base URL (output.ts resolves it). */
export interface ResultImage {
	url?: string;
	asset_id?: string;
	expires_at?: string;
	[key: string]: unknown;
}

/** A bare address, or an object with it under a usual key. */
export function readResultImage(entry: unknown): ResultImage {
	if (typeof entry === 'string') return { url: entry.trim() };
	if (!isRecord(entry)) return {};
	const key = RESULT_IMAGE_URL_KEYS.find(
		(name) => typeof entry[name] === 'string' && entry[name] !== '',
	);
	const assetId = entry.asset_id;
	const expiresAt = time.safeParse(entry.expires_at);
	return {
		...entry,
		url: key === undefined ? undefined : String(entry[key]).trim(),
		asset_id:
			typeof assetId === 'string' || typeof assetId === 'number' ? String(assetId) : undefined,
		expires_at: expiresAt.success ? (expiresAt.data ?? undefined) : undefined,
	};
}

/** Wherever the service put them; undefined when the task carries no result images at all. */
export function resultImageEntries(task: Task): unknown[] | undefined {
	const result = task.result;
	const list = isRecord(result) ? result.images : (result ?? task.images);
	if (list === undefined || list === null || list === '') return undefined;
	return Array.isArray(list) ? list : [list];
}

export const taskSchema = z.preprocess(
	// `state` or `task_status` where the spec says `status`.
	(value) =>
		isRecord(value) && value.status === undefined
			? { ...value, status: value.state ?? value.task_status }
			: value,
	z
		.object({
			task_id: id.optional(),
			status: z.string().min(1),
			created_at: time,
			completed_at: time,
			// Read by resultImageEntries, never refused: a finished task's result is billed, and a
			// shape the node cannot read is handed to the user rather than lost in a schema error.
			result: z.unknown().optional(),
			images: z.unknown().optional(),
			error: z.unknown().optional(),
		})
		.passthrough(),
);

export const analysisSchema = z
	.object({
		analysis: z
			.object({
				attributes: z.array(z.object({ evidence: z.string().optional() }).passthrough()).optional(),
			})
			.passthrough(),
		formattedText: z.string().optional(),
		output_text: z.string().optional(),
	})
	.passthrough();

export const planSchema = z
	.object({
		modules: z.array(z.object({ recommended_prompt: z.string() }).passthrough()),
		global_style: z.unknown().optional(),
		notes: z.unknown().optional(),
	})
	.passthrough();

export type UploadedImage = z.infer<typeof uploadedImageSchema>;
export type Task = z.infer<typeof taskSchema>;
export type Plan = z.infer<typeof planSchema>;
