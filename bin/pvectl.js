#!/usr/bin/env node
// The published entry point runs the compiled CLI (built by `npm run build`, which `npm ci` runs through `prepare`).
import { main } from "../dist/cli/main.js";

await main(process.argv);
