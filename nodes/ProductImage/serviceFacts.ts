// What the service promises, written once for every text and timeout that depends on it, and the
// names the credential gives it and its address, which the advice repeats.

export const SERVICE_NAME = 'Product Image Generation Service';

/** The credential's field for the service's address. */
export const BASE_URL_LABEL = 'Base URL';

/** Uploaded images, tasks and their result images are kept this long. */
export const KEPT_FOR = '3 days';

/** Analysis, planning and image transfers may take this long; the service recommends waiting as long. */
export const SYNC_OPERATION_SECONDS = 120;
