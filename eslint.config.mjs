import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'examples/**', 'scripts/**', 'coverage/**'] },
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		extends: [tseslint.configs.recommended],
	},
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
		...n8nCommunityNodesPlugin.configs.recommended,
	},
	{
		files: ['package.json'],
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
	},
);
