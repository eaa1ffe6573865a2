#!/usr/bin/env node
// The `stablepay` command, compiled ahead of time into dist/ (`npm install` builds it; by hand: `npm run build`).
import '../dist/stablepay.js';
