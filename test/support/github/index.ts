// The stand-in for GitHub and its fixture repository, as one module: the end-to-end suite (plain
// JavaScript) loads it bundled by esbuild.

export { FakeGitHub } from './fakeGitHub';
export { makeFixtureRepository } from './fixtureRepository';
