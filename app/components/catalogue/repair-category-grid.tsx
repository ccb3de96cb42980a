/** The four repair categories as link cards (spec §2 "Home" and the repair-service home /repair). */
import { FeatureCard } from "~/components/ui/card";
import { REPAIR_CATEGORIES, repairIcons } from "~/config/repair-categories";

export function RepairCategoryGrid() {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
      {REPAIR_CATEGORIES.map((category) => {
        const Icon = repairIcons[category.icon];
        return (
          <li key={category.id} className="flex">
            <FeatureCard className="w-full" icon={<Icon className="size-6" />} title={category.title} to={category.path}>
              <p>{category.description}</p>
            </FeatureCard>
          </li>
        );
      })}
    </ul>
  );
}
