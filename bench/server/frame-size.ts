/**
 * The size of our update frames (the echo floor's payload), from one game through the engine.
 *
 *   npm run bench:server:frame-size
 */
import { sampleFrame } from './lib/frame.ts';

const { sizes } = sampleFrame();
console.log(
  `update frame JSON: ${sizes.first} B at the start, median ${sizes.median} B, max ${sizes.max} B over ${sizes.moves} moves`,
);
