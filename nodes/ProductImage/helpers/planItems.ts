import type { IDataObject } from 'n8n-workflow';

import { aspectRatioOf, findAPlusModule } from './aPlusModules';
import type { Plan } from './schemas';

/** Fields the service might use to name a planned module; the spec does not show which. */
const MODULE_ID_FIELDS = ['module', 'module_id', 'moduleId', 'id', 'type', 'key', 'name'];

function moduleIdOf(entry: IDataObject, requested: readonly string[]): string | undefined {
	for (const field of MODULE_ID_FIELDS) {
		const value = entry[field];
		if (typeof value === 'string' && requested.includes(value)) return value;
	}
	return undefined;
}

/**
 * One item per planned module, ready for a following Generate node: the prompt, the series style,
 * and the module's default target size as an aspect ratio. Modules the service does not name are
 * matched to the requested list by position.
 */
export function planModuleItems(plan: Plan, requested: readonly string[]): IDataObject[] {
	return plan.modules.map((entry, index) => {
		const moduleId = moduleIdOf(entry as IDataObject, requested) ?? requested[index];
		const known = moduleId === undefined ? undefined : findAPlusModule(moduleId);
		return {
			...(entry as IDataObject),
			module: moduleId ?? null,
			module_index: index,
			purpose: known?.purpose ?? null,
			target_width: known?.width ?? null,
			target_height: known?.height ?? null,
			target_size: known ? `${known.width}x${known.height}` : null,
			aspect_ratio: known ? aspectRatioOf(known) : null,
			recommended_prompt: entry.recommended_prompt,
			global_style: (plan.global_style ?? null) as IDataObject['global_style'],
			notes: (plan.notes ?? null) as IDataObject['notes'],
		};
	});
}
