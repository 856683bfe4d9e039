import type { IDataObject } from 'n8n-workflow';

import { plainText } from '../helpers/aPlus';

// What a person checks before images are billed, as one text for a chat message or a form.

/** The spec names `evidence` only: an attribute's name and value are read where services put them. */
const firstOf = (entry: IDataObject, names: string[]) =>
	names.map((name) => entry[name]).find((value) => value !== undefined && value !== null);

/** A value of a shape the spec does not show (a list, an object) as readable text. */
function asText(value: unknown): string {
	if (value === undefined || value === null) return '';
	if (Array.isArray(value)) return value.map(asText).join(', ');
	return (typeof value === 'object' ? JSON.stringify(value) : String(value)).trim();
}

const counted = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

const section = (title: string, body: string) => (body === '' ? '' : `${title}\n${body}`);

/** Only what the photos show or the request said is taken as given; anything else is confirmed. */
const GIVEN = ['visible', 'provided'];

export function analysisReview(analysis: unknown, brief: unknown): IDataObject {
	const attributes = (analysis as IDataObject | undefined)?.attributes;
	const facts = (Array.isArray(attributes) ? (attributes as IDataObject[]) : []).map((entry) => ({
		name: asText(firstOf(entry, ['name', 'attribute', 'key', 'label'])),
		value: asText(firstOf(entry, ['value', 'values'])),
		evidence: asText(entry.evidence),
	}));
	const toConfirm = facts.filter((fact) => !GIVEN.includes(fact.evidence));
	const given = facts.filter((fact) => GIVEN.includes(fact.evidence));
	const heading =
		toConfirm.length === 0
			? 'Nothing to confirm: the service inferred no product fact.'
			: `Confirm before use: ${counted(toConfirm.length, 'fact')} the service inferred from the photos.`;
	const text = [
		[heading, ...toConfirm.map((fact) => `- ${fact.name}: ${fact.value}`)].join('\n'),
		section(
			'Seen in the photos or provided:',
			given.map((fact) => `- ${fact.name}: ${fact.value} (${fact.evidence})`).join('\n'),
		),
		section('Brief:', plainText(asText(brief))),
	];
	return {
		facts_to_confirm: toConfirm.map(({ name, value }) => ({ name, value })),
		facts_to_confirm_count: toConfirm.length,
		review_text: text.filter(Boolean).join('\n\n'),
	};
}

/** `modules` as the module items carry them; each becomes one billed image when generated. */
export function planReview(modules: IDataObject[], notes: unknown, style: unknown): IDataObject {
	const lines = modules.map((entry, index) => {
		const size = entry.target_width ? `, ${entry.target_width}×${entry.target_height}` : '';
		const name = asText(entry.module) || `module ${index + 1}`;
		return `${index + 1}. ${name}${size}: ${asText(entry.recommended_prompt)}`;
	});
	const text = [
		`Generating this plan bills ${counted(modules.length, 'image')}, one per module.`,
		section('Notes to check:', asText(notes)),
		section('Modules:', lines.join('\n')),
		section('Style for every image:', asText(style)),
	];
	return { images_to_bill: modules.length, review_text: text.filter(Boolean).join('\n\n') };
}
