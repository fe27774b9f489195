import { describe, expect, it } from 'vitest';
import { boardShown, isOver, refusal, skipToResult, stateID, synced, tableCards } from './drive.ts';
import { e2eSuite, seeded } from './suite.ts';
import { choose, nextActor, pick, sameState } from './turns.ts';

// A scripted player clicks faster than a person: lift the per-socket rate limit.
const suite = e2eSuite('e2e', { RATE_LIMIT_PER_SECOND: '100', RATE_LIMIT_BURST: '200' });
const { shot } = suite;

describe('a match in the browser', () => {
  it('is created, joined by invite, watched, played to the end, and survives a reload and a lost network', async () => {
    const hostContext = await suite.context({ viewport: { width: 1280, height: 900 } });
    const guestContext = await suite.context({ viewport: { width: 390, height: 844 } });
    const watchContext = await suite.context({ viewport: { width: 1280, height: 900 } });

    // 1. Ann creates a public match as the US.
    const ann = await hostContext.newPage();
    await ann.goto('/');
    await ann.getByLabel('Your name').fill('Ann');
    await ann.getByText('More options').click();
    await ann.getByLabel('the US', { exact: true }).check();
    await ann.getByLabel('Public: listed for spectators').check();
    await ann.getByRole('button', { name: 'Create the match' }).click();
    const invite = await ann.getByLabel('Invite link').inputValue();
    const spectate = await ann.getByLabel('Spectator link').inputValue();
    expect(invite).toMatch(/\/join\/[\w-]+#.+/);
    expect(spectate).toMatch(/\/watch\/[\w-]+$/);
    await shot(ann, '1-created');
    await ann.getByRole('button', { name: 'Go to the table' }).click();
    await synced(ann);
    await boardShown(ann);
    await ann.getByRole('region', { name: 'Invite' }).waitFor();

    // 2. Boris opens the invite link on a phone-sized screen and takes the free seat.
    const boris = await guestContext.newPage();
    await boris.goto(invite);
    await boris.getByLabel('Your name').fill('Boris');
    await shot(boris, '2-invite');
    await boris.getByRole('button', { name: 'Take the seat and play' }).click();
    await synced(boris);
    await boardShown(boris);
    await ann.locator('[data-player="1"]', { hasText: 'Boris' }).waitFor();

    // 3. A spectator opens the spectator link.
    const watcher = await watchContext.newPage();
    await watcher.goto(spectate);
    await synced(watcher);
    await boardShown(watcher);
    expect(await watcher.getByRole('region', { name: 'Your hand' }).count()).toBe(0);
    await ann.getByText('1 watching').waitFor();

    // 4. They play to the end, clicking only what the UI offers.
    const random = seeded(1989);
    const players = [ann, boris];
    let clicks = 0;
    let reloaded = false;
    for (; clicks < 1000; clicks++) {
      const turn = await nextActor(players);
      if (!turn) break;
      await choose(turn.page, pick(turn.choices, random));

      // 5. Midway, Boris reloads: the same seat and the same hand come back.
      if (!reloaded && (await stateID(boris)) >= 15 && !(await isOver(boris))) {
        reloaded = true;
        // Compare like with like: both seats and the spectator hold the latest state first.
        await sameState([ann, boris, watcher]);
        await shot(boris, '3-before-reload');
        const hand = await boris
          .locator('section[aria-label="Your hand"] [data-card]')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-card')));
        const table = await tableCards(boris);
        await boris.reload();
        await synced(boris);
        await boardShown(boris);
        expect(
          await boris
            .locator('section[aria-label="Your hand"] [data-card]')
            .evaluateAll((els) => els.map((e) => e.getAttribute('data-card'))),
        ).toEqual(hand);
        expect(await tableCards(boris)).toEqual(table);
        expect(await boris.locator('[data-player="1"]').textContent()).toContain('(you)');
        await shot(boris, '4-after-reload');

        // 6. Ann loses the network for a while: the page says so, then resumes her seat.
        await hostContext.setOffline(true);
        await ann.locator('[data-connection="reconnecting"]').waitFor();
        // Two live regions say it: the connection's, and the page's offline notice.
        expect(await ann.locator('[role="status"][data-connection]').textContent()).toBe(
          'Connection lost, reconnecting…',
        );
        await ann.getByRole('status').filter({ hasText: 'You are offline' }).waitFor();
        await shot(ann, '4-offline');
        // Offline until the server has noticed: the others see her away.
        for (const page of [boris, watcher]) {
          await page.locator('[data-player="0"] [data-presence="away"]').waitFor();
        }
        await hostContext.setOffline(false);
        await synced(ann);
        await sameState([ann, boris, watcher]);
        expect(await ann.locator('[data-player="0"]').textContent()).toContain('(you)');
        for (const page of [boris, watcher]) {
          await page.locator('[data-player="0"] [data-presence="here"]').waitFor();
        }
      }
    }
    expect(reloaded).toBe(true);

    // 7. Every page shows the same end: the winner, the reason, the same table.
    for (const page of [ann, boris, watcher]) {
      await page.getByRole('region', { name: 'Result' }).waitFor({ timeout: 15_000 });
    }
    // The final scoring plays before the result is told: each page goes past it.
    for (const page of [ann, boris, watcher]) await skipToResult(page);
    const winner = await ann.getByRole('region', { name: 'Result' }).getAttribute('data-winner');
    expect(['US', 'USSR']).toContain(winner);
    for (const page of [boris, watcher]) {
      expect(await page.getByRole('region', { name: 'Result' }).getAttribute('data-winner')).toBe(
        winner,
      );
    }
    const finalTable = await tableCards(ann);
    expect(finalTable.length).toBeGreaterThan(1);
    expect((await tableCards(watcher)).sort()).toEqual([...finalTable].sort());
    expect((await tableCards(boris)).sort()).toEqual([...finalTable].sort());
    const reason = await watcher.locator('.end-reason').getAttribute('data-reason');
    const steps = await watcher.locator('[data-step]').count();
    expect(await ann.locator('[data-step]').count()).toBe(steps);
    // A live table plays the final scoring over the board (EndStage, checked in table.e2e.ts), one
    // step at a time; its list of steps is the replay's (EndScreen), so none stands on these pages.
    if (reason === 'final') expect(steps).toBe(0);
    const logLength = await ann.locator('section[aria-label="Move log"] li').count();
    expect(await watcher.locator('section[aria-label="Move log"] li').count()).toBe(logLength);
    for (const page of [ann, boris, watcher]) expect(await refusal(page)).toBeNull();

    // 8. The finished match replays move by move from its stored record, to the same table.
    await watcher.getByRole('link', { name: 'Replay this match' }).click();
    await watcher.getByText('Before the first move').waitFor({ timeout: 15_000 });
    await watcher.getByRole('button', { name: 'Last' }).click();
    expect((await tableCards(watcher)).sort()).toEqual([...finalTable].sort());
    expect(await watcher.locator('output').textContent()).toMatch(/^Move (\d+) of \1$/);
    expect(
      await watcher.getByRole('link', { name: 'Save the record file' }).getAttribute('href'),
    ).toMatch(/^data:application\/json/);
    await shot(watcher, '6-replay');

    await shot(ann, '5-end-host');
    await shot(boris, '5-end-guest-mobile');
    await shot(watcher, '5-end-spectator');
    console.log(
      `e2e: ${clicks} clicks, ${finalTable.length} cards on the table, ${winner} won (${reason}), ${logLength} log lines`,
    );
    await Promise.all([hostContext.close(), guestContext.close(), watchContext.close()]);
  });
});
