// Loads nrictl's plugin SDK for the example plugins here: from the built package, or,
// in a checkout that was not built, from the TypeScript sources through tsx (slower to
// start: on a busy machine a plugin may then miss the runtime's 5 s registration timeout).
// Not executable, so a runtime's plugin discovery skips this file.
export async function loadSdk() {
  try {
    return await import('../../dist/src/plugin/index.js');
  } catch {
    const { tsImport } = await import('tsx/esm/api');
    return tsImport('../../src/plugin/index.ts', import.meta.url);
  }
}
