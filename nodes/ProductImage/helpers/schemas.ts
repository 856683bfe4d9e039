import { z } from 'zod';

/**
 * Shapes of the service's results, as the spec shows them. Unknown fields pass through untouched:
 * the spec leaves many "not shown", and users may need them.
 */
export const uploadedImageSchema = z
	.object({
		id: z.string().min(1),
		url: z.string().url(),
		expiresAt: z.string().optional(),
	})
	.passthrough();

export const submissionSchema = z
	.object({
		task_id: z.string().min(1),
		status: z.string().optional(),
	})
	.passthrough();

export const resultImageSchema = z
	.object({
		asset_id: z.string().optional(),
		url: z.string().url(),
		expires_at: z.string().optional(),
	})
	.passthrough();

export const taskSchema = z
	.object({
		task_id: z.string().optional(),
		status: z.string().min(1),
		created_at: z.string().nullish(),
		completed_at: z.string().nullish(),
		result: z
			.object({ images: z.array(resultImageSchema).optional() })
			.passthrough()
			.nullish(),
		error: z.unknown().optional(),
	})
	.passthrough();

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
export type ResultImage = z.infer<typeof resultImageSchema>;
export type Plan = z.infer<typeof planSchema>;
