// Preloaded (node --import) into a server that a crash test kills at one exact moment: the
// process dies (SIGKILL, no cleanup) right after an upload's join claim file is linked into
// place, before any byte is joined. Patching node:fs/promises and syncing the ESM view makes
// the server's own `import { link } from 'node:fs/promises'` see it (docs/files.md, "Chunked upload protocol").
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';

const link = fsp.link;
fsp.link = async (existing, target) => {
  await link(existing, target);
  if (String(target).endsWith('/.joining')) process.kill(process.pid, 'SIGKILL');
};
syncBuiltinESMExports();
