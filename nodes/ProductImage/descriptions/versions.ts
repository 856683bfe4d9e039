/**
 * 0.2.0 released version 1 (v1/), 0.3.0 version 2 (v2/). Workflows saved with either keep its
 * parameters and behavior; a change of meaning after a release goes to a new version.
 */
export const NODE_VERSIONS = [1, 2];
export const DEFAULT_VERSION = 2;
