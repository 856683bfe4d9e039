import type { IDataObject } from 'n8n-workflow';
import { plainText } from '../helpers/aPlus';
/** A value of a shape the spec does not show (a list, an object) as readable text. */
const asText = (value: unknown): string =>
	Array.isArray(value)
		? value.map(asText).join(', ')
		: String((value && typeof value === 'object' ? JSON.stringify(value) : value) ?? '').trim();
const counted = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const sections = (...parts: string[][]) =>
	parts.flatMap(([title, body]) => (body ? [title ? `${title}\n${body}` : body] : [])).join('\n\n');
export const REVIEW_FIELDS = ['facts_to_confirm', 'facts_to_confirm_count', 'review_text'];
/** The spec names `evidence` only; what the photos show or the request said is taken as given. */
export function analysisReview(analysis: unknown, brief: unknown): IDataObject {
	const facts = (((analysis as IDataObject).attributes ?? []) as IDataObject[]).map((entry) => ({
		name: asText(entry.name ?? entry.attribute ?? entry.key),
		value: asText(entry.value),
		evidence: ['visible', 'provided'].includes(String(entry.evidence)) ? entry.evidence : '',
	}));
	const toConfirm = facts.filter((fact) => !fact.evidence);
	const lines = (list: typeof facts) =>
		list.map((f) => `\n- ${f.name}: ${f.value}${f.evidence ? ` (${f.evidence})` : ''}`).join('');
	const heading = toConfirm.length
		? `Confirm before use: ${counted(toConfirm.length, 'fact')} the service inferred from the photos.`
		: 'Nothing to confirm: the service inferred no product fact.';
	return {
		facts_to_confirm: toConfirm.map(({ name, value }) => ({ name, value })),
		facts_to_confirm_count: toConfirm.length,
		review_text: sections(
			['', heading + lines(toConfirm)],
			['Seen in the photos or provided:', lines(facts.filter((fact) => fact.evidence)).slice(1)],
			['Brief:', plainText(asText(brief))],
		),
	};
}
/** `modules` as the module items carry them; each becomes one billed image when generated. */
export function planReview(modules: IDataObject[], notes: unknown, style: unknown): IDataObject {
	const lines = modules.map(
		(m, i) =>
			`${i + 1}. ${asText(m.module) || `module ${i + 1}`}${m.target_width ? `, ${m.target_width}x${m.target_height}` : ''}: ${asText(m.recommended_prompt)}`,
	);
	return {
		images_to_bill: modules.length,
		review_text: sections(
			['', `Generating this plan bills ${counted(modules.length, 'image')}, one per module.`],
			['Notes to check:', asText(notes)],
			['Modules:', lines.join('\n')],
			['Style for every image:', asText(style)],
		),
	};
}
