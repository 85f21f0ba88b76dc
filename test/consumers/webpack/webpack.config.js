// The webpack 5 consumer's config: a production build (minified) of three entries, the default
// worker (main.js), the app-started worker (hatch.js) and a Merkle-only page (merkle.js). Nothing
// about workers: webpack 5 must follow the package's `new Worker(new URL('./worker.js',
// import.meta.url))` on its own, and split each kernel family's import() into its own chunk, as
// docs/worker.md says ("works as is"). webpack emits no HTML without a plugin, and this fixture
// installs nothing beyond webpack and webpack-cli, so a few lines below emit the pages.
import webpack from 'webpack';

const page = (title, script) => `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${title}</title></head>
<body><script src="./${script}"></script></body></html>
`;

/** Emits index.html and hatch.html next to the bundles (what html-webpack-plugin would do). */
class EmitPages {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('EmitPages', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'EmitPages', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        compilation.emitAsset(
          'index.html',
          new webpack.sources.RawSource(page('webgpu-prover consumer (webpack): default worker', 'main.js')),
        );
        compilation.emitAsset(
          'hatch.html',
          new webpack.sources.RawSource(page('webgpu-prover consumer (webpack): app-started worker', 'hatch.js')),
        );
        compilation.emitAsset(
          'merkle.html',
          new webpack.sources.RawSource(page('webgpu-prover consumer (webpack): Merkle only', 'merkle.js')),
        );
      });
    });
  }
}

export default {
  mode: 'production',
  context: import.meta.dirname,
  entry: { main: './main.js', hatch: './hatch.js', merkle: './merkle.js' },
  output: { path: `${import.meta.dirname}/dist`, clean: true },
  // The NTT family's WGSL is a ~340 KiB chunk; webpack's size hints are not the finding.
  performance: { hints: false },
  stats: 'errors-warnings',
  plugins: [new EmitPages()],
};
