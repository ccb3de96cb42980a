/**
 * drizzle-kit: generates SQL migrations in `drizzle/` from `database/schema.ts` and `database/schema-ratings.ts`
 * (issue 17 §4), `database/schema-booking.ts` (issue 18) and `database/schema-repairs.ts` (issue 18 §2)
 * (`npm run db:generate`).
 */
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: [
    "./database/schema.ts",
    "./database/schema-ratings.ts",
    "./database/schema-booking.ts",
    "./database/schema-repairs.ts",
  ],
  out: "./drizzle",
});
