import { createState, parseSetupData, type State, viewFor } from '@iron-curtain/game';
import { GAME_NAMESPACE, ServerEvents, viewPatch } from '@iron-curtain/protocol';
import { Decoder, Encoder, type Packet, PacketType } from 'socket.io-parser';
import { describe, expect, it } from 'vitest';
import { jsonSocketParser } from '../src/edge/socket-parser.ts';

const setup = parseSetupData({ sides: { '0': 'US', '1': 'USSR' } });
const dealt: State = createState(setup, (cards) => cards);
const played: State = { ...dealt, marker: 1, plays: 1, hands: { ...dealt.hands, '0': [] } };

/** One packet of each kind the game service writes, with frames of our own shapes. */
const packets: Packet[] = [
  { type: PacketType.CONNECT, nsp: GAME_NAMESPACE, data: { sid: 'a1' } },
  { type: PacketType.CONNECT_ERROR, nsp: GAME_NAMESPACE, data: { message: 'refused' } },
  {
    type: PacketType.EVENT,
    nsp: GAME_NAMESPACE,
    data: [
      ServerEvents.update,
      {
        matchID: 'm1',
        from: 3,
        stateID: 4,
        patch: viewPatch(viewFor(dealt, '0'), viewFor(played, '0')),
        entries: [],
      },
    ],
  },
  { type: PacketType.EVENT, nsp: GAME_NAMESPACE, data: ['sync', { G: viewFor(dealt, null) }] },
  { type: PacketType.ACK, nsp: GAME_NAMESPACE, id: 7, data: [{ ok: true }] },
  { type: PacketType.EVENT, nsp: '/', data: ['hello'] },
  { type: PacketType.DISCONNECT, nsp: GAME_NAMESPACE },
];

function decoded(text: string): Packet {
  const decoder = new Decoder();
  let packet: Packet | undefined;
  decoder.on('decoded', (p: Packet) => {
    packet = p;
  });
  decoder.add(text);
  if (!packet) throw new Error(`no packet in ${text}`);
  return packet;
}

describe('the game service’s socket.io encoder', () => {
  it('writes every packet as the same text as the stock encoder, one string each', () => {
    const ours = new jsonSocketParser.Encoder();
    const stock = new Encoder();
    for (const packet of packets) {
      const written = ours.encode(packet);
      expect(written).toEqual(stock.encode(packet));
      expect(written).toHaveLength(1);
      expect(typeof written[0]).toBe('string');
    }
  });

  it('writes frames the stock decoder reads back as they were sent', () => {
    const ours = new jsonSocketParser.Encoder();
    for (const packet of packets) {
      const written = ours.encode(packet);
      expect(written).toHaveLength(1);
      expect(decoded(written[0] as string)).toEqual(packet);
    }
  });
});
