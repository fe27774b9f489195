import type { RulesContext } from '@iron-curtain/game';
import { createContext, useContext } from 'react';

const Rules = createContext<RulesContext | null>(null);

/** The match's deck and variants for everything drawn inside it (they never change during a match). */
export const RulesProvider = Rules.Provider;

export function useRules(): RulesContext {
  const rules = useContext(Rules);
  if (!rules) throw new Error('useRules needs a RulesProvider around it');
  return rules;
}
