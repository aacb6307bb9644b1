// The release version, stamped into the bundles by the build (scripts/build.mjs).

declare const __REDLINE_VERSION__: string | undefined;

export const REDLINE_VERSION: string = typeof __REDLINE_VERSION__ === 'string' ? __REDLINE_VERSION__ : '0.0.0-dev';
