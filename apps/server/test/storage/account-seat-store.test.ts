import { expect, it } from 'vitest';
import { signUpOf } from './accounts.ts';
import { describeContract, storedMatch } from './contract.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

describeContract('the account seat store', (backend) => {
  it('lists the seats an account joined on either instance, the latest first, each once', async () => {
    const up = signUpOf('jack', 'jack', 'jack');
    await backend.stores().accounts.signUp(up);
    const first = await storedMatch(backend.stores());
    const second = await storedMatch(backend.stores());
    const seat = (matchID: string, minute: number) => ({
      matchID,
      seat: '0',
      credentials: `creds-${matchID}`,
      joinedAt: at(minute),
    });
    await backend.stores().accountSeats.addSeats(up.account.accountID, [seat(first, 1)]);
    await backend
      .twin()
      .accountSeats.addSeats(up.account.accountID, [seat(second, 2), seat(first, 3)]);
    expect(await backend.stores().accountSeats.seatsOf(up.account.accountID)).toEqual([
      seat(second, 2),
      seat(first, 1),
    ]);
  });
});
