import { Container } from '@n8n/di';
import { Logger } from '@n8n/backend-common';
import { LoggerProxy } from 'n8n-workflow';

export interface LogLine {
	level: 'error' | 'warn' | 'info' | 'debug';
	message: string;
	metadata?: unknown;
}

/**
 * Every log line of a run, as n8n's Logger would receive it: node code logs through
 * `this.logger`, which n8n-core takes from the container.
 */
export function captureLogger(): LogLine[] {
	const lines: LogLine[] = [];
	const record = (level: LogLine['level']) => (message: string, metadata?: unknown) => {
		lines.push({ level, message, metadata });
	};
	const logger = {
		error: record('error'),
		warn: record('warn'),
		info: record('info'),
		debug: record('debug'),
		scoped: () => logger,
	};
	Container.set(Logger, logger as unknown as Logger);
	LoggerProxy.init(logger as unknown as Logger);
	return lines;
}
