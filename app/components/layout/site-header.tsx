/** Fixed top navigation bar (spec §2 "Shared layout"). */
import { Wrench } from "lucide-react";
import { Link, NavLink } from "react-router";
import { mainNav } from "#app/config/navigation.ts";
import { useShop } from "#app/shop/use-shop.ts";
import { cn } from "#app/utils/cn.ts";
import { MobileMenu } from "./mobile-menu";

export function SiteHeader() {
  const shop = useShop();
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-slate-800 bg-slate-950/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Link
          to="/"
          className="flex items-center gap-2 rounded-lg text-lg font-bold text-white focus-visible:outline-2 focus-visible:outline-sky-300"
        >
          <Wrench aria-hidden="true" className="size-6 text-sky-300" />
          <span>{shop.name}</span>
        </Link>
        <nav aria-label="Navigation principale" className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {mainNav.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end
                  className={({ isActive }) =>
                    cn(
                      "rounded-lg px-3 py-2 text-sm font-medium text-slate-200 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-sky-300",
                      isActive && "text-sky-300",
                    )
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <MobileMenu />
      </div>
    </header>
  );
}
