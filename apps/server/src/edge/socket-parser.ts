import { Decoder, Encoder, type Packet } from 'socket.io-parser';

/** The stock encoder's text encoding of one packet (a method its types keep private). */
type TextEncoding = { encodeAsString(packet: Packet): string };

/**
 * socket.io's encoder without its search for binary attachments. Before writing an event,
 * the stock encoder walks all of it for Buffers (socket.io-parser's hasBinary, a for-in walk
 * reading `obj[key]`); on Node 26's V8 that walk is optimised and thrown away again and again
 * on the many shapes of our frames, and took 9 % of the server's time per move
 * (bench/results.md, session 22). Every frame the game service sends is JSON (the shapes of
 * @iron-curtain/protocol), so it is written as the stock encoder writes a frame without
 * binary: the same text, read by the stock decoder and by every client.
 */
class JsonEncoder extends Encoder {
  override encode(packet: Packet): string[] {
    return [(this as unknown as TextEncoding).encodeAsString(packet)];
  }
}

/** socket.io's `parser` option for the game service: JSON frames only, the stock decoder. */
export const jsonSocketParser = { Encoder: JsonEncoder, Decoder };
