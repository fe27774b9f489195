// The operator's account switch: `npm run account -w @iron-curtain/server -- disable NAME`
// (or `enable NAME`), with the server's own settings (DATABASE_URL or DATA_DIR) in the
// environment. On the embedded store, stop the server first: one process owns its file.
import { setAccountDisabled } from '../src/accounts/disable-account.ts';
import { loadConfig } from '../src/ops/config.ts';
import { openStores } from '../src/storage/index.ts';

const [action, username] = process.argv.slice(2);
if ((action !== 'disable' && action !== 'enable') || !username) {
  console.error('usage: account disable NAME | account enable NAME');
  process.exit(2);
}
const stores = await openStores(loadConfig());
try {
  const found = await setAccountDisabled(
    stores,
    username,
    action === 'disable',
    new Date().toISOString(),
  );
  console.log(found ? `${username}: ${action}d` : `${username}: no such account`);
  process.exitCode = found ? 0 : 1;
} finally {
  await stores.close();
}
