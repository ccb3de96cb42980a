/**
 * Reads the catalogue data files: `data/brands.json` (the brand slugs, in
 * the order of spec §2) and one `data/<slug>.json` per brand (issue 14: the
 * data are the one list of brands; adding a brand is a new data file and
 * its slug in `brands.json`, nothing in the code).
 *
 * Why a manifest and `import()` rather than a directory read or a list of
 * imports: the catalogue is loaded in three ways —
 * - by Node itself with type stripping (the assistant, server/assistant/knowledge.ts),
 *   where `import.meta.glob` does not exist;
 * - by Vite and Vitest (build, server bundle, pre-rendering, the finder's
 *   index plugin, unit tests), where a directory read would look for
 *   `data/` next to the bundled file in build/server, not in the sources;
 * - by Playwright's loader (e2e tests).
 * A dynamic `import(\`./data/${slug}.json\`, { with: { type: "json" } })`
 * works in all three: Node loads the file, Vite turns the template into a
 * glob of `./data/*.json` and bundles every file. The order has to live
 * somewhere, and one short list in `data/` says it better than a number in
 * each file; a test checks that it names every data file once.
 *
 * Only server-side code reaches this module (see `./index.ts`), never a
 * browser bundle.
 */
import manifestJson from "./data/brands.json" with { type: "json" };
import { ManifestSchema } from "./schema.ts";
import { at, CatalogueError } from "./validate.ts";

/** The brand slugs of `data/brands.json`, in spec §2 order (validated, no duplicate). */
export function brandSlugs(manifest: unknown = manifestJson): string[] {
  const result = ManifestSchema.safeParse(manifest);
  if (!result.success) {
    throw new CatalogueError(
      result.error.issues.map((issue) => `data/brands.json — ${issue.path.join(".")} : ${issue.message}`),
    );
  }
  const slugs = result.data.brands;
  const twice = slugs.filter((slug, i) => slugs.indexOf(slug) !== i);
  if (twice.length > 0) throw new CatalogueError([`data/brands.json — marque(s) en double : ${twice.join(", ")}`]);
  return slugs;
}

/**
 * The parsed JSON of every brand file named by the manifest, in its order,
 * still of unknown shape (`loadCatalogue` validates them).
 *
 * @throws {CatalogueError} if a file is missing or its `slug` is not its file name.
 */
export async function readBrandFiles(slugs: readonly string[] = brandSlugs()): Promise<unknown[]> {
  const issues: string[] = [];
  const files = await Promise.all(
    slugs.map(async (slug) => {
      try {
        const data = at(await import(`./data/${slug}.json`, { with: { type: "json" } }), "default");
        if (at(data, "slug") !== slug) issues.push(`data/${slug}.json — slug : doit valoir ${slug}, le nom du fichier`);
        return data;
      } catch (error) {
        issues.push(
          `data/${slug}.json — fichier illisible ou absent (${error instanceof Error ? error.message : String(error)})`,
        );
        return undefined;
      }
    }),
  );
  if (issues.length > 0) throw new CatalogueError(issues);
  return files;
}
