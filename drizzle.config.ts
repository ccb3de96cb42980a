/**
 * drizzle-kit: generates SQL migrations in `drizzle/` from `database/schema.ts` and `database/schema-ratings.ts`
 * (issue 17 §4) (`npm run db:generate`).
 */
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: ["./database/schema.ts", "./database/schema-ratings.ts"],
  out: "./drizzle",
});
