import fixtures from './fixtures.js';

const {
  fixturesDir,
  path,
  fileURL,
  readSync,
  readKey,
} = fixtures;

export {
  fixturesDir,
  path,
  fileURL,
  readSync,
  readKey,
};
