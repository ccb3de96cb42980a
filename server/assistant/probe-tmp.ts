import { lookupRepairPrices, type PriceLookup } from "./knowledge.ts";
const show = (r: PriceLookup) =>
  r.kind === "found"
    ? `${r.model.model}: ${r.repairNamed ? r.model.repairs.map((x) => x.repair + " " + x.price).join(", ") : "(all)"}`
    : r.kind === "ambiguous"
      ? "AMBIG " +
        r.candidates.map((c) => c.model).join(" | ") +
        (r.repairNamed ? " [" + r.candidates[0]!.repairs.map((x) => x.repair).join(",") + "]" : "")
      : "NOTFOUND " + r.brands.map((b) => b.brand).join(",");
for (const q of process.argv.slice(2)) console.log(q.padEnd(50), "→", lookupRepairPrices(q).map(show).join(" || "));
