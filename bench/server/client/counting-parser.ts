/**
 * A socket.io packet codec (the Manager's `parser` option) for clients that only hold a state
 * id and count what they receive: a crowd of thousands in a few processes must not spend the
 * CPU the server is measured with. It reads each frame's event name without parsing the rest;
 * only a `sync` (once per connection) is parsed whole, and an `update` gives its two state ids
 * from the frame's head (the server writes `matchID`, `from`, `stateID` first; any other shape
 * is parsed whole). Text frames only: our server sends no binary.
 */
import { EventEmitter } from 'node:events';

/** socket.io's packet types (socket.io-parser's PacketType). */
const CONNECT = 0;
const DISCONNECT = 1;
const EVENT = 2;
const CONNECT_ERROR = 4;
const TYPE_NAMES: Record<number, string> = {
  [CONNECT]: 'connect',
  [DISCONNECT]: 'disconnect',
  [CONNECT_ERROR]: 'connect_error',
};

interface Packet {
  type: number;
  nsp: string;
  id?: number;
  data?: unknown;
}

/** What a counting client learns of an `update` frame. */
export interface UpdateHead {
  from: number;
  stateID: number;
}

const UPDATE_HEAD = /^\["update",\{"matchID":"[^"]*","from":(\d+),"stateID":(\d+)/;

function decode(text: string, count: (event: string) => void): Packet {
  const type = Number(text[0]);
  let i = 1;
  let nsp = '/';
  if (text[i] === '/') {
    const comma = text.indexOf(',', i);
    nsp = comma === -1 ? text.slice(i) : text.slice(i, comma);
    i = comma === -1 ? text.length : comma + 1;
  }
  let digits = '';
  while (i < text.length && text[i] !== undefined && /\d/.test(text[i] as string))
    digits += text[i++];
  const id = digits === '' ? undefined : Number(digits);
  const rest = text.slice(i);
  if (type !== EVENT) {
    count(TYPE_NAMES[type] ?? `packet ${type}`);
    return { type, nsp, id, data: rest === '' ? undefined : JSON.parse(rest) };
  }
  const event = rest.slice(2, rest.indexOf('"', 2));
  count(event);
  // A sync (once per connection) and a restart notice (once per server stop) are read whole.
  if (event === 'sync' || event === 'restarting') return { type, nsp, id, data: JSON.parse(rest) };
  if (event === 'update') {
    const head = UPDATE_HEAD.exec(rest);
    const update: UpdateHead = head
      ? { from: Number(head[1]), stateID: Number(head[2]) }
      : (JSON.parse(rest) as [string, UpdateHead])[1];
    return { type, nsp, id, data: [event, update] };
  }
  return { type, nsp, id, data: [event] };
}

/** The Manager's `parser` option; `count` is told each received frame's event name. */
export function countingParser(count: (event: string) => void) {
  class Encoder {
    encode(packet: Packet): string[] {
      const nsp = packet.nsp === '/' ? '' : `${packet.nsp},`;
      const data = packet.data === undefined ? '' : JSON.stringify(packet.data);
      return [`${packet.type}${nsp}${packet.id ?? ''}${data}`];
    }
  }
  class Decoder extends EventEmitter {
    add(frame: unknown): void {
      if (typeof frame !== 'string') throw new Error('counting parser: binary frames unsupported');
      this.emit('decoded', decode(frame, count));
    }
    destroy(): void {
      this.removeAllListeners();
    }
  }
  return { Encoder, Decoder };
}
