#!/usr/bin/env node
// generated - do not edit; regenerate with devrites generate
// stand-in for the one-file CLI
process.exit(0);
