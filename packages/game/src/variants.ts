import { z } from 'zod/mini';
import type { Variants } from './types.ts';

/**
 * The edition variants a match is created with. A module of its own, in zod's tree-shakable
 * form: the wire schemas import it, and it must pull neither the default deck nor all of
 * zod into a web page with it.
 */
export const variantsSchema = z.strictObject({
  aftermathCap: z._default(z.union([z.literal(3), z.null()]), 3),
  finalScoringOrder: z._default(z.enum(['standard', 'polish']), 'standard'),
});

/** The standard edition: aftermath capped at 3 IP, regions scored in deck order. */
export const STANDARD_VARIANTS: Variants = { aftermathCap: 3, finalScoringOrder: 'standard' };
