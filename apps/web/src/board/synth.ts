/** The table's sounds (played through sound.ts, which loads this file on first use). */
export type TableSound = 'card' | 'cubes' | 'turn' | 'scoring' | 'end';

/** Each sound as notes: frequency (Hz), start and length (s), wave. All of it <= 300 ms long. */
const NOTES: Record<TableSound, [number, number, number, OscillatorType][]> = {
  card: [
    [420, 0, 0.09, 'triangle'],
    [260, 0.05, 0.1, 'triangle'],
  ],
  cubes: [[1100, 0, 0.04, 'square']],
  turn: [
    [660, 0, 0.12, 'sine'],
    [880, 0.12, 0.16, 'sine'],
  ],
  scoring: [
    [523, 0, 0.09, 'triangle'],
    [659, 0.08, 0.09, 'triangle'],
    [784, 0.16, 0.14, 'triangle'],
  ],
  end: [
    [392, 0, 0.1, 'sawtooth'],
    [523, 0.09, 0.1, 'sawtooth'],
    [659, 0.18, 0.12, 'sawtooth'],
  ],
};

let audio: AudioContext | null = null;

/** Plays one sound now: a few notes, each with a short attack and decay. */
export function synthesise(sound: TableSound): void {
  audio ??= new AudioContext();
  const now = audio.currentTime;
  for (const [frequency, start, length, wave] of NOTES[sound]) {
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = wave;
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(0.15, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(now + start);
    oscillator.stop(now + start + length + 0.02);
  }
}
