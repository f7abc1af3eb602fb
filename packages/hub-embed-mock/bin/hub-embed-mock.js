#!/usr/bin/env node
// The CLI as built (dist/cli.js); a file of its own so that installs link the bin before a build.
import '../dist/cli.js';
