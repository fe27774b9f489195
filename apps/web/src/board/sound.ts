// The table's sounds, synthesised with the Web Audio API (our own, no recorded files): off until
// the player turns them on, the choice remembered per browser.
import { useSyncExternalStore } from 'react';
import type { TableSound } from './synth.ts';

const KEY = 'iron-curtain:sound';

const listeners = new Set<() => void>();

function stored(): boolean {
  try {
    return localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

let enabled = typeof localStorage === 'undefined' ? false : stored();

export function setSoundOn(on: boolean): void {
  enabled = on;
  try {
    localStorage.setItem(KEY, on ? 'on' : 'off');
  } catch {
    // A browser that keeps nothing: the choice lasts for this page.
  }
  for (const listener of listeners) listener();
}

export function useSoundOn(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    () => enabled,
    () => false,
  );
}

/** Plays one sound if the player turned sound on; the synthesiser loads with the first sound. */
export function playSound(sound: TableSound): void {
  if (!enabled || typeof AudioContext === 'undefined') return;
  void import('./synth.ts').then(({ synthesise }) => synthesise(sound));
}
