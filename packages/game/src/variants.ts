import { z } from 'zod';

/**
 * The edition variants a match is created with. A module of its own: the wire schemas
 * import it, and it must not pull the default deck into a web page with it.
 */
export const variantsSchema = z.strictObject({
  aftermathCap: z.union([z.literal(3), z.null()]).default(3),
  finalScoringOrder: z.enum(['standard', 'polish']).default('standard'),
});
