#!/usr/bin/env node
// generated - do not edit; regenerate with devrites generate
// stand-in for user-prompt-submit
process.exit(0);
