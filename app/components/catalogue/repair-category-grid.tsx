/** The four repair categories as link cards (spec §2 "Home" and the repair-service home /repair). */
import { FeatureCard } from "#app/components/ui/card.tsx";
import { REPAIR_CATEGORIES, repairIcons } from "#app/config/repair-categories.ts";

export function RepairCategoryGrid() {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
      {REPAIR_CATEGORIES.map((category) => {
        const Icon = repairIcons[category.icon];
        return (
          <li key={category.id} className="flex">
            <FeatureCard
              className="w-full"
              icon={<Icon className="size-6" />}
              title={category.title}
              to={category.path}
            >
              <p>{category.description}</p>
            </FeatureCard>
          </li>
        );
      })}
    </ul>
  );
}
