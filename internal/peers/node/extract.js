// Extracts a zip the way @actions/artifact's downloadArtifact does (and so
// actions/download-artifact): the archive stream piped into unzip-stream's
// Extract. Usage: node extract.js ZIP DIR. Exits non-zero on any error.
'use strict';
const fs = require('fs');
const unzip = require('unzip-stream');

const [zip, dir] = process.argv.slice(2);
fs.createReadStream(zip)
  .pipe(unzip.Extract({ path: dir }))
  .on('close', () => process.exit(0))
  .on('error', (err) => {
    console.error(`extract ${zip}: ${err.message}`);
    process.exit(1);
  });
