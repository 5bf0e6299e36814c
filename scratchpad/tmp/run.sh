#!/bin/sh
# bundles try.ts with esbuild (ESM) and runs it
cd /work/wt/bashparse && node_modules/.bin/esbuild scratchpad/tmp/try.ts --bundle --platform=node --format=esm --outfile=scratchpad/tmp/out/try.mjs --log-level=warning --external:web-tree-sitter && node scratchpad/tmp/out/try.mjs "$@"
