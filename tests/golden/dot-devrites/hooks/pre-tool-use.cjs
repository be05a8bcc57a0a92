#!/usr/bin/env node
// generated - do not edit; regenerate with devrites generate
// stand-in for pre-tool-use
process.exit(0);
