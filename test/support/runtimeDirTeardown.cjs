// jest's globalTeardown: removes the run's folder of sockets and discovery files (runtimeDirSetup.cjs).
const fs = require('fs');

module.exports = async function removeRuntimeDir() {
  if (globalThis.redlineRuntimeDir) fs.rmSync(globalThis.redlineRuntimeDir, { recursive: true, force: true });
};
