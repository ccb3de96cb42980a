/**
 * Account field lengths (issue 13 §5), in characters (UTF-16 code units, as
 * `maxLength` counts them). Apart from `account.ts` so the sign-in forms can
 * use them without downloading zod (issue 16: the signed-out /soft-assist).
 */
export const ACCOUNT_LIMITS = { name: 100, email: 254, passwordMin: 8, passwordMax: 128, image: 2048 } as const;
