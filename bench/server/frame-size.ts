/**
 * The size of our update frames (the echo floor's payload), from one game through the engine.
 *
 *   npm run bench:server:frame-size
 */
import { sampleFrame } from './lib/frame.ts';

const { sizes } = sampleFrame();
console.log(
  `sync JSON: ${sizes.sync} B (the deck and variants once); update JSON to one seat: median ${sizes.median} B, max ${sizes.max} B over ${sizes.moves} moves; one move to all three recipients: median ${sizes.perMoveMedian} B, max ${sizes.perMoveMax} B`,
);
