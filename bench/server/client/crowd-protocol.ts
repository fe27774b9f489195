import type { DriverContext } from './drivers.ts';

/** The phases of a crowd run; every frame and CPU second a worker counts belongs to one. */
export const CROWD_PHASES = ['quiet', 'join', 'settle', 'play', 'restart'] as const;
export type CrowdPhase = (typeof CROWD_PHASES)[number];

export type ToCrowdWorker =
  /** Open the other matches (and the watched one, when `watched`), then report ready. */
  | { type: 'players'; ctx: DriverContext; matches: number; periodMs: number; watched: boolean }
  /** The other matches start playing, each a move per period, until told to stop. */
  | { type: 'go' }
  /** The watched match moves once per period from now (true) or stops moving (false). */
  | { type: 'watch'; moving: boolean }
  /**
   * Connect spectators to `matchID` at once, spectator i (`first` + k) from `addresses[i %
   * addresses.length]`; `spread` adds the index to the handshake query (see crowd.ts, nginx).
   */
  | {
      type: 'spectators';
      base: string;
      matchID: string;
      first: number;
      count: number;
      addresses: string[];
      spread: boolean;
    }
  | { type: 'phase'; phase: CrowdPhase }
  | { type: 'report' }
  | { type: 'stop' };

/** One move of the watched match, as its mover saw it (epoch ms). */
export interface WatchedMove {
  from: number;
  sentAt: number;
  /** The mover's acknowledgement: its update with the resulting state, ms after sending. */
  ack: number;
}

export interface CrowdReport {
  /** Moves of the other matches: when the mover had the result (epoch ms), and its round trip. */
  others: [at: number, rtt: number][];
  watched: WatchedMove[];
  /** Spectators' arrival times (epoch ms) of the update made on each state id. */
  arrivals: Record<number, number[]>;
  /** Frames the spectators received, by phase and event name. */
  frames: Partial<Record<CrowdPhase, Record<string, number>>>;
  /** This process's CPU seconds (user + system) at each phase's start, with the time (epoch ms). */
  cpu: { phase: CrowdPhase; at: number; seconds: number }[];
  spectators: number;
  synced: number;
  /** The spectators' failed connection attempts, by phase. */
  connectErrors: Partial<Record<CrowdPhase, number>>;
  /** When each failed connection attempt of the restart phase failed (epoch ms). */
  restartErrorTimes: number[];
  refused: Record<string, number>;
  errors: string[];
}

export type FromCrowdWorker =
  /** The worker's code is loaded and it listens (its start takes a core for a while). */
  | { type: 'loaded' }
  | { type: 'ready'; watchedID?: string; opened: number; errors: string[] }
  /** Spectators synced now, when the last of them synced (epoch ms), frames received so far. */
  | { type: 'progress'; synced: number; lastSyncAt: number; frames: number }
  | { type: 'report'; report: CrowdReport }
  | { type: 'fatal'; message: string };
