/**
 * One queue per match: work for a match runs one piece at a time, in arrival order,
 * so a move, the broadcast of its result and a socket's sync never interleave.
 */
export class MatchQueues {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(matchID: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(matchID) ?? Promise.resolve();
    const result = previous.then(work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(matchID, tail);
    void tail.then(() => {
      if (this.tails.get(matchID) === tail) this.tails.delete(matchID);
    });
    return result;
  }

  /** Matches with queued or running work. */
  get busy(): number {
    return this.tails.size;
  }

  /** Resolves when everything queued so far has finished. */
  async drain(): Promise<void> {
    while (this.tails.size > 0) await Promise.all(this.tails.values());
  }
}
