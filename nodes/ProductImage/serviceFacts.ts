// What the service promises, written once for every text and timeout that depends on it.

/** Uploaded images, tasks and their result images are kept this long. */
export const KEPT_FOR = '3 days';

/** Analysis, planning and image transfers may take this long; the service recommends waiting as long. */
export const SYNC_OPERATION_SECONDS = 120;
