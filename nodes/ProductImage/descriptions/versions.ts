/**
 * Version 1 is what 0.2.0 released (its folder: v1/), version 2 what 0.3.0 released and the
 * current one (v2/). Workflows saved with either keep its parameters and behavior; a change of
 * meaning after a release goes to a new version.
 */
export const NODE_VERSIONS = [1, 2];
export const DEFAULT_VERSION = 2;
