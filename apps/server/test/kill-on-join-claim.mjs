// Preloaded (node --import) into a server that a crash test kills at one exact moment: the
// process dies (SIGKILL, no cleanup) right after an upload's join is claimed, before any byte is
// joined. The claim is a database row (piece_uploads.claim), so the first file step after it
// marks the moment: the join opening the upload's data file to read (sniff) its first bytes
// (pieces are written with numeric flags, never 'r'). Patching node:fs/promises and syncing the
// ESM view makes the server's own `import { open } from 'node:fs/promises'` see it (docs/files.md,
// "Chunked upload protocol").
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';

const open = fsp.open;
fsp.open = async (path, flags, mode) => {
  if (String(path).endsWith('/data') && flags === 'r') process.kill(process.pid, 'SIGKILL');
  return open(path, flags, mode);
};
syncBuiltinESMExports();
