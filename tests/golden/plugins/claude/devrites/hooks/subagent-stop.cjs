#!/usr/bin/env node
// generated - do not edit; regenerate with devrites generate
// stand-in for subagent-stop
process.exit(0);
