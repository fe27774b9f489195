import { expect, it } from 'vitest';
import { CHAT_LINES_KEPT, type ChatRecord } from '../../src/storage/index.ts';
import { describeContract, storedMatch } from './contract.ts';

/** A line of `room` at second `second` of the day. */
function lineOf(matchID: string, room: ChatRecord['room'], second: number): Omit<ChatRecord, 'id'> {
  return {
    matchID,
    room,
    seat: room === 'players' ? '0' : null,
    text: `line ${second}`,
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
  };
}

describeContract('the chat store', (backend) => {
  const chat = () => backend.stores().chat;

  it('keeps lines in the order they came, each with its id, and reads them back as stored', async () => {
    const matchID = await storedMatch(backend.stores());
    const phrase: Omit<ChatRecord, 'id'> = {
      matchID,
      room: 'players',
      seat: '1',
      phrase: 'goodGame',
      at: new Date().toISOString(),
    };
    const first = await chat().addChatLine(lineOf(matchID, 'spectators', 1));
    const second = await backend.twin().chat.addChatLine(phrase);
    if (!first || !second) throw new Error('a line of a stored match was refused');
    expect(second.id).toBeGreaterThan(first.id);
    expect(await chat().readChat(matchID)).toEqual([first, second]);
    expect(second).toEqual({ ...phrase, id: second.id });
  });

  it('a line for a match that is not stored is refused and kept nowhere', async () => {
    expect(await chat().addChatLine(lineOf('nosuchmatch', 'players', 1))).toBeUndefined();
    expect(await chat().readChat('nosuchmatch')).toEqual([]);
  });

  it("keeps each room's newest lines only: a busy room never pushes the other's out", async () => {
    const matchID = await storedMatch(backend.stores());
    const quiet = await chat().addChatLine(lineOf(matchID, 'players', 0));
    for (let i = 1; i <= CHAT_LINES_KEPT + 3; i++) {
      await chat().addChatLine(lineOf(matchID, 'spectators', i));
    }
    const lines = await chat().readChat(matchID);
    const spectators = lines.filter((l) => l.room === 'spectators');
    expect(spectators).toHaveLength(CHAT_LINES_KEPT);
    expect(spectators[0]?.text).toBe('line 4');
    expect(spectators.at(-1)?.text).toBe(`line ${CHAT_LINES_KEPT + 3}`);
    expect(lines.filter((l) => l.room === 'players')).toEqual([quiet]);
  });

  it("the creator's switch and a seat's mute are read with the match's record, and undone", async () => {
    const matchID = await storedMatch(backend.stores());
    const record = () => backend.twin().matches.getMatch(matchID);
    await chat().setChatOff(matchID, true);
    await chat().setMuting(matchID, '1', true);
    expect((await record())?.chatOff).toBe(true);
    expect((await record())?.players[1].mutingOpponent).toBe(true);
    expect((await record())?.players[0].mutingOpponent).toBeUndefined();
    await chat().setChatOff(matchID, false);
    await chat().setMuting(matchID, '1', false);
    expect((await record())?.chatOff).toBeUndefined();
    expect((await record())?.players[1].mutingOpponent).toBeUndefined();
  });
});
