import type {
	IDataObject,
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { shownParameters } from './panelContract';

/** One parameter the editor shows, where it sits and the list of parameters it sits in. */
export interface ShownParameter {
	property: INodeProperties;
	/** The stored path of its parent: '' at the top, `options`, `productDetails.platform.value`. */
	path: string;
	/** `top`, an entry of a `collection`, or a value of a fixedCollection `group`. */
	place: 'top' | 'collection' | 'group';
	/** The parameters of the same place, in the order the panel shows them. */
	siblings: INodeProperties[];
}

/** `values` with the parameters at `path` filled with their defaults, as the editor sees them. */
function withDefaultsAt(
	values: IDataObject,
	path: string,
	properties: INodeProperties[],
): IDataObject {
	const copy = JSON.parse(JSON.stringify(values)) as IDataObject;
	const keys = path.split('.').filter(Boolean);
	let here = copy;
	for (const key of keys) {
		if (typeof here[key] !== 'object' || here[key] === null) here[key] = {};
		here = here[key] as IDataObject;
	}
	for (const property of properties)
		if (here[property.name] === undefined) here[property.name] = property.default;
	return copy;
}

/**
 * Every parameter the editor shows for these values in this node version: the top level, every
 * collection's entries (each as if added) and every fixedCollection group's values, each checked
 * with n8n's own display logic at its stored path.
 */
export function walkShown(
	description: INodeTypeDescription,
	typeVersion: number,
	values: INodeParameters,
): ShownParameter[] {
	const node = { typeVersion, parameters: {} } as INode;
	const found: ShownParameter[] = [];
	const visit = (
		properties: INodeProperties[],
		path: string,
		place: ShownParameter['place'],
		given: IDataObject,
	) => {
		const filled =
			place === 'top' ? given : withDefaultsAt(given, path, place === 'group' ? properties : []);
		const shown =
			place === 'top'
				? shownParameters(description, typeVersion, given as INodeParameters)
				: properties.filter((property) =>
						NodeHelpers.displayParameterPath(
							filled as INodeParameters,
							property,
							path,
							node,
							description,
						),
					);
		for (const property of shown) {
			found.push({ property, path, place, siblings: shown });
			const here = path ? `${path}.${property.name}` : property.name;
			if (property.type === 'collection')
				visit(property.options as INodeProperties[], here, 'collection', filled);
			if (property.type === 'fixedCollection') {
				for (const group of property.options as INodePropertyCollection[])
					visit(group.values, `${here}.${group.name}`, 'group', filled);
			}
		}
	};
	visit(description.properties, '', 'top', values as IDataObject);
	return found;
}
