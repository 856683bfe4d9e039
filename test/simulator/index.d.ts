// Types for TypeScript tests that import the simulator; the implementation is index.js.

export type TaskOutcome = 'succeed' | 'fail' | 'never';
export type DownloadMode = 'same' | 'cdn' | 'redirect';
export type ErrorShape = 'envelope' | 'nested' | 'detail' | 'msg';

export interface SimulatorConfig {
	taskDurationMs: number;
	taskDurationSpreadMs: number;
	/** When not empty, the nth task submitted takes the nth of these (from the start again after the last). */
	taskDurationsMs: number[];
	taskOutcome: TaskOutcome;
	/** When not empty, the nth task submitted ends the nth of these ways (from the start again after the last). */
	taskOutcomes: TaskOutcome[];
	imagesPerTask: number;
	imageLongSide: number;
	resultsInData: boolean;
	emptyErrorObject: boolean;
	/** the word a task query reports for each state, where a service uses its own */
	statusWords: Partial<
		Record<'submitted' | 'queued' | 'processing' | 'succeeded' | 'failed', string>
	>;
	/** a finished task reports no `completed_at` */
	omitCompletedAt: boolean;
	/** result images as objects (the spec), bare address strings, objects without an address, or those with the caller's key */
	resultImages: 'objects' | 'strings' | 'unreadable' | 'unreadableWithKey';
	/** the key an image object holds its address under */
	resultAddressKey: string;
	/** complete addresses, or paths on the service */
	resultAddresses: 'absolute' | 'relative' | 'protocolRelative';
	/** the field a task's status is reported in, or none */
	statusField: 'status' | 'state' | 'task_status' | 'none';
	/** a task's `result` inside `data`, or beside it */
	resultPlacement: 'inData' | 'besideData' | 'resultIsList' | 'imagesOnTask' | 'singleImage';
	/** times as epoch numbers */
	timesAsNumbers: false | 'seconds' | 'milliseconds';
	imageFormat: 'png' | 'jpeg' | 'webp' | 'gif' | 'avif';
	/** which fields carry the analysis brief */
	analysisText: 'both' | 'formattedText' | 'output_text';
	analysisInferred: boolean;
	downloads: DownloadMode;
	assetsRequireAuth: boolean;
	errorShape: ErrorShape;
	latencyMs: number;
	maxUploadBytes: number;
	expireAfterMs: number;
	/** the service's rate limit: submits accepted in any 60 s, beyond it 429 with Retry-After (0: no limit) */
	submitsPerMinute: number;
	/** unfinished tasks the service holds at once, beyond it a submit gets 429 with Retry-After (0: no limit) */
	tasksInFlight: number;
	/** a proxy answers 503 with its own HTML page: to every request, or to task queries only */
	outage: 'none' | 'all' | 'task';
}

export type Route =
	'upload' | 'submit' | 'task' | 'asset' | 'media' | 'analysis' | 'plan' | 'cdn' | 'unknown';

export interface RequestRecord {
	origin: 'main' | 'cdn';
	method: string;
	path: string;
	route: Route;
	/** 0 until a status line is sent; stays 0 when the connection is cut first */
	status: number;
	/** the raw Authorization header value */
	authorization: string | undefined;
	/** the raw Accept header value */
	accept: string | undefined;
	/** epoch ms of arrival */
	at: number;
	/** the X-Request-Id header a client sent, if any */
	requestIdHeader?: string;
	/** the `image_urls` of a JSON body (submit, analysis, plan), as received */
	imageUrls?: unknown;
	/** a plan's `product_description` as received */
	productDescription?: unknown;
	/** a plan's `platform`, `market` and `language` as received: only those its body holds */
	planTarget?: Record<string, unknown>;
	/** a submit's prompt as received (also when a fault replaced the reply), so it can be traced to an item */
	prompt?: string;
}

export interface Stats {
	requests: RequestRecord[];
	submitsAccepted: number;
	cdnAuthRejected: number;
	byRoute: Record<string, number>;
}

export type FaultRoute =
	'upload' | 'submit' | 'task' | 'asset' | 'media' | 'analysis' | 'plan' | 'cdn' | 'any';

export interface Fault {
	route: FaultRoute;
	status?: number;
	retryAfter?: string;
	body?: 'error' | 'html' | 'signIn' | 'empty' | 'malformed' | 'echoHeaders';
	/** the service's words in an error body, in place of `Simulated <status>` */
	message?: string;
	delayMs?: number;
	reset?: 'beforeResponse' | 'midBody';
	acceptSubmit?: boolean;
	/** replaces the reply's content type; '' sends none */
	contentType?: string;
	/** default 1; Infinity allowed */
	times?: number;
	forMs?: number;
	/** `times` counts for each request body on its own, and the fault stays */
	each?: boolean;
}

export interface UploadRecord {
	id: string;
	contentType: string;
	filename: string | undefined;
	bytes: Buffer;
	createdAt: number;
}

export interface TaskRecord {
	task_id: string;
	/** the submitted JSON body as received */
	body: Record<string, unknown>;
	createdAt: number;
	durationMs: number;
	outcome: TaskOutcome;
	imagesPerTask: number;
	imageLongSide: number;
	/** task queries answered for this task */
	queries: number;
	readonly status: string;
	readonly completedAt: number | undefined;
	statusAt(now: number): string;
	imageSize(): { width: number; height: number };
	assetId(index: number): string;
}

export interface SimulatorOptions extends Partial<SimulatorConfig> {
	apiKey?: string;
	port?: number;
	cdnPort?: number;
	onRequest?: (record: RequestRecord) => void;
}

export interface Simulator {
	readonly baseUrl: string;
	readonly cdnUrl: string;
	readonly apiKey: string;
	configure(partial: Partial<SimulatorConfig>): SimulatorConfig;
	addFault(fault: Fault): void;
	reset(): void;
	readonly stats: Stats;
	readonly tasks: Map<string, TaskRecord>;
	readonly uploads: Map<string, UploadRecord>;
	/** Replies waiting out a delay (a fault's delayMs, latencyMs) before they are sent. */
	readonly heldReplies: number;
	readonly config: Readonly<SimulatorConfig>;
	close(): Promise<void>;
}

export interface PngInfo {
	width: number;
	height: number;
	bitDepth: number;
	colorType: number;
	chunks: string[];
	/** inflated scanlines, each led by its filter byte */
	pixels: Buffer;
}

export function startSimulator(options?: SimulatorOptions): Promise<Simulator>;
export function readPngInfo(bytes: Uint8Array): PngInfo;
export const DEFAULT_CONFIG: Readonly<SimulatorConfig>;
