#!/usr/bin/env node
// placeholder: the CLI lands with issue 3
process.stdout.write("weft 0.1.0\n")
