/**
 * The size of the update frames of one game through the engine: ours (the echo floor's
 * payload) and stock boardgame.io's for the same game (the stock-ic target).
 *
 *   npm run bench:server:frame-size
 */
import { sampleFrame } from './lib/frame.ts';
import { stockFrameSizes } from './lib/stock-frame.ts';

const { sizes } = sampleFrame();
console.log(
  `sync JSON: ${sizes.sync} B (the deck and variants once); update JSON to one seat: median ${sizes.median} B, max ${sizes.max} B over ${sizes.moves} moves; one move to all three recipients: median ${sizes.perMoveMedian} B, max ${sizes.perMoveMax} B`,
);
const stock = stockFrameSizes();
console.log(
  `stock-ic: sync ${stock.sync} B; update frame JSON ${stock.first} B after the first move, median ${stock.median} B, max ${stock.max} B over ${stock.moves} moves`,
);
